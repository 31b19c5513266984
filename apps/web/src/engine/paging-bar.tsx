import { ActionIcon, Group, NativeSelect, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconChevronsLeft, IconChevronsRight } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
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
  const first = page <= 1;
  const last = page >= pageCount;
  // On a phone the bar must fit 375 px: no first/last jumps, and the size picker shows just the number.
  const compact = useMediaQuery(MOBILE_QUERY) ?? false;
  return (
    <Group gap="xs" wrap="nowrap" data-testid="paging-bar">
      <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid="row-total">
        {total.toLocaleString()} {total === 1 ? 'row' : 'rows'}
      </Text>
      <NativeSelect
        size="xs"
        aria-label="Rows per page"
        value={String(size)}
        data={PAGE_SIZES.map((s) => ({ value: String(s), label: compact ? String(s) : `${s} / page` }))}
        onChange={(e) => onSize(Number(e.currentTarget.value))}
        w={compact ? 64 : 100}
      />
      {!compact && (
        <ActionIcon variant="subtle" size="sm" aria-label="First page" disabled={first} onClick={() => onPage(1)}>
          <IconChevronsLeft size={16} />
        </ActionIcon>
      )}
      <ActionIcon variant="subtle" size="sm" aria-label="Previous page" disabled={first} onClick={() => onPage(page - 1)}>
        <IconChevronLeft size={16} />
      </ActionIcon>
      <Text size="sm" style={{ whiteSpace: 'nowrap' }} data-testid="page-of">
        Page {page} of {pageCount}
      </Text>
      <ActionIcon variant="subtle" size="sm" aria-label="Next page" disabled={last} onClick={() => onPage(page + 1)}>
        <IconChevronRight size={16} />
      </ActionIcon>
      {!compact && (
        <ActionIcon variant="subtle" size="sm" aria-label="Last page" disabled={last} onClick={() => onPage(pageCount)}>
          <IconChevronsRight size={16} />
        </ActionIcon>
      )}
    </Group>
  );
}
