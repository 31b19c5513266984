import { Button, Group, Kbd, Modal, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { localeOf } from '../lib/i18n';
import type { Translate } from './entity-labels';
import { countText } from './list-messages';
import { totalText } from './paging-bar';

export interface ConfirmDeleteDialogProps {
  opened: boolean;
  count: number;
  /** The entity's label in the current language. */
  tableName: string;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

export function ConfirmDeleteDialog({ opened, count, tableName, busy, onCancel, onConfirm }: ConfirmDeleteDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onCancel} title={t('list.delete_title', { defaultValue: 'Delete records' })} centered size="sm">
      <Stack gap="md">
        <Text size="sm">
          {countText(
            t,
            'list.delete_text',
            count,
            { single: 'Delete {{n}} {{table}} record? This cannot be undone.', many: 'Delete {{n}} {{table}} records? This cannot be undone.' },
            { table: tableName },
          )}
        </Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            {t('btn.cancel', { defaultValue: 'Cancel' })}
          </Button>
          <Button color="red" onClick={onConfirm} loading={busy} data-autofocus data-testid="confirm-delete">
            {t('btn.delete', { defaultValue: 'Delete' })}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export interface Shortcut {
  keys: string[][];
  /** Language-file key of what the shortcut does, and its English default. */
  actionKey: string;
  action: string;
}

/** Spec section 6 shortcuts, as the table-info dialog lists them. Key names stay as printed on keyboards. */
export const SHORTCUTS: readonly Shortcut[] = [
  { keys: [['Ctrl', 'E'], ['Ctrl', 'U']], actionKey: 'list.shortcut_edit', action: 'Edit the selected record' },
  { keys: [['Ctrl', 'R']], actionKey: 'btn.refresh', action: 'Refresh' },
  { keys: [['Alt', 'N']], actionKey: 'list.shortcut_new', action: 'New record' },
  { keys: [['Ctrl', 'D'], ['Ctrl', 'Delete']], actionKey: 'list.shortcut_delete', action: 'Delete the selected records' },
  { keys: [['Ctrl', 'H']], actionKey: 'btn.table_info', action: 'Table info' },
];

export const shortcutAction = (t: Translate, s: Shortcut): string => t(s.actionKey, { defaultValue: s.action });

export interface TableInfoDialogProps {
  opened: boolean;
  onClose: () => void;
  /** The entity's label in the current language. */
  label: string;
  total: number;
  /** false: at least `total` rows. */
  totalExact?: boolean;
  /** Labels of the searched columns, in the current language. */
  searchable: string[];
}

export function TableInfoDialog({ opened, onClose, label, total, totalExact = true, searchable }: TableInfoDialogProps) {
  const { t, i18n } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('list.info_title', { defaultValue: '{{table}}: table info', table: label })} centered size="md">
      <Stack gap="sm">
        <Text size="sm">
          <b>{t('list.total_rows', { defaultValue: 'Total rows:' })}</b> {totalText(total, totalExact, localeOf(i18n.language))}
        </Text>
        <Text size="sm">
          <b>{t('list.search_looks_in', { defaultValue: 'Search looks in:' })}</b>{' '}
          {searchable.length > 0 ? searchable.join(', ') : t('list.no_columns', { defaultValue: 'no columns' })}
        </Text>
        <Table withTableBorder striped fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('list.shortcut', { defaultValue: 'Shortcut' })}</Table.Th>
              <Table.Th>{t('list.action', { defaultValue: 'Action' })}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {SHORTCUTS.map((s) => (
              <Table.Tr key={s.actionKey}>
                <Table.Td>
                  {s.keys.map((combo, i) => (
                    <span key={combo.join('+')}>
                      {i > 0 && ` ${t('list.or', { defaultValue: 'or' })} `}
                      {combo.map((k, j) => (
                        <span key={k}>
                          {j > 0 && ' + '}
                          <Kbd size="xs">{k}</Kbd>
                        </span>
                      ))}
                    </span>
                  ))}
                </Table.Td>
                <Table.Td>{shortcutAction(t, s)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Modal>
  );
}
