import { ActionIcon, Group, NativeSelect, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconChevronsLeft, IconChevronsRight } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { localeOf } from '../lib/i18n';
import { countText } from './list-messages';
import { MOBILE_QUERY } from './responsive';
import { PAGE_SIZES } from './use-entity-list';

export interface PagingBarProps {
  page: number;
  pageCount: number;
  total: number;
  size: number;
  onPage: (page: number) => void;
  onSize: (size: number) => void;
}

export function PagingBar({ page, pageCount, total, size, onPage, onSize }: PagingBarProps) {
  const { t, i18n } = useTranslation();
  const first = page <= 1;
  const last = page >= pageCount;
  // On a phone the bar must fit 375 px: no first/last jumps, and the size picker shows just the number.
  const compact = useMediaQuery(MOBILE_QUERY) ?? false;
  return (
    <Group gap="xs" wrap="nowrap" data-testid="paging-bar">
      <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid="row-total">
        {countText(t, 'grid.row', total, { single: '{{n}} row', many: '{{n}} rows' }, { n: total.toLocaleString(localeOf(i18n.language)) })}
      </Text>
      <NativeSelect
        size="xs"
        aria-label={t('grid.page_size', { defaultValue: 'Rows per page' })}
        value={String(size)}
        data={PAGE_SIZES.map((s) => ({ value: String(s), label: compact ? String(s) : t('grid.per_page', { defaultValue: '{{n}} / page', n: s }) }))}
        onChange={(e) => onSize(Number(e.currentTarget.value))}
        w={compact ? 64 : 100}
      />
      {!compact && (
        <ActionIcon variant="subtle" size="sm" aria-label={t('grid.first', { defaultValue: 'First' })} disabled={first} onClick={() => onPage(1)}>
          <IconChevronsLeft size={16} />
        </ActionIcon>
      )}
      <ActionIcon variant="subtle" size="sm" aria-label={t('grid.previous', { defaultValue: 'Previous' })} disabled={first} onClick={() => onPage(page - 1)}>
        <IconChevronLeft size={16} />
      </ActionIcon>
      <Text size="sm" style={{ whiteSpace: 'nowrap' }} data-testid="page-of">
        {t('grid.page_of', { defaultValue: 'Page {{page}} of {{pages}}', page, pages: pageCount })}
      </Text>
      <ActionIcon variant="subtle" size="sm" aria-label={t('grid.next', { defaultValue: 'Next' })} disabled={last} onClick={() => onPage(page + 1)}>
        <IconChevronRight size={16} />
      </ActionIcon>
      {!compact && (
        <ActionIcon variant="subtle" size="sm" aria-label={t('grid.last', { defaultValue: 'Last' })} disabled={last} onClick={() => onPage(pageCount)}>
          <IconChevronsRight size={16} />
        </ActionIcon>
      )}
    </Group>
  );
}
