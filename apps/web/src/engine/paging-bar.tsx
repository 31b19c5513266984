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
  /** false: at least `total` rows ('10,000+ rows'); the last page is not known, so Last is off. */
  totalExact?: boolean;
  size: number;
  onPage: (page: number) => void;
  onSize: (size: number) => void;
}

/** A row count in the user's locale; an inexact one is a lower bound: '10,000+'. */
export function totalText(total: number, totalExact: boolean, locale: string): string {
  const n = total.toLocaleString(locale);
  return totalExact ? n : `${n}+`;
}

export function PagingBar({ page, pageCount, total, totalExact = true, size, onPage, onSize }: PagingBarProps) {
  const { t, i18n } = useTranslation();
  const first = page <= 1;
  const last = page >= pageCount;
  // On a phone the bar must fit 375 px: no first/last jumps, and the size picker shows just the number.
  const compact = useMediaQuery(MOBILE_QUERY) ?? false;
  return (
    <Group gap="xs" wrap="nowrap" data-testid="paging-bar">
      <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid="row-total">
        {/* An at-least count always reads plural ('1+ rows' is never singular). */}
        {countText(t, 'grid.row', totalExact ? total : Math.max(total, 2), { single: '{{n}} row', many: '{{n}} rows' }, { n: totalText(total, totalExact, localeOf(i18n.language)) })}
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
        {t('grid.page_of', { defaultValue: 'Page {{page}} of {{pages}}', page, pages: totalExact ? pageCount : `${pageCount}+` })}
      </Text>
      <ActionIcon variant="subtle" size="sm" aria-label={t('grid.next', { defaultValue: 'Next' })} disabled={last} onClick={() => onPage(page + 1)}>
        <IconChevronRight size={16} />
      </ActionIcon>
      {!compact && (
        <ActionIcon variant="subtle" size="sm" aria-label={t('grid.last', { defaultValue: 'Last' })} disabled={last || !totalExact} onClick={() => onPage(pageCount)}>
          <IconChevronsRight size={16} />
        </ActionIcon>
      )}
    </Group>
  );
}
