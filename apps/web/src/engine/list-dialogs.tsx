import { Button, Group, Kbd, Modal, Stack, Table, Text } from '@mantine/core';

export interface ConfirmDeleteDialogProps {
  opened: boolean;
  count: number;
  tableName: string;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

export function ConfirmDeleteDialog({ opened, count, tableName, busy, onCancel, onConfirm }: ConfirmDeleteDialogProps) {
  return (
    <Modal opened={opened} onClose={onCancel} title="Delete records" centered size="sm">
      <Stack gap="md">
        <Text size="sm">
          Delete {count} {tableName} {count === 1 ? 'record' : 'records'}? This cannot be undone.
        </Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button color="red" onClick={onConfirm} loading={busy} data-autofocus data-testid="confirm-delete">
            Delete
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Spec section 6 shortcuts, as the table-info dialog lists them. */
export const SHORTCUTS: readonly { keys: string[][]; action: string }[] = [
  { keys: [['Ctrl', 'E'], ['Ctrl', 'U']], action: 'Edit the selected record' },
  { keys: [['Ctrl', 'R']], action: 'Refresh' },
  { keys: [['Alt', 'N']], action: 'New record' },
  { keys: [['Ctrl', 'D'], ['Ctrl', 'Delete']], action: 'Delete the selected records' },
  { keys: [['Ctrl', 'H']], action: 'Table info' },
];

export interface TableInfoDialogProps {
  opened: boolean;
  onClose: () => void;
  label: string;
  total: number;
  searchable: string[];
}

export function TableInfoDialog({ opened, onClose, label, total, searchable }: TableInfoDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={`${label}: table info`} centered size="md">
      <Stack gap="sm">
        <Text size="sm">
          <b>Total rows:</b> {total.toLocaleString()}
        </Text>
        <Text size="sm">
          <b>Search looks in:</b> {searchable.length > 0 ? searchable.join(', ') : 'no columns'}
        </Text>
        <Table withTableBorder striped fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Shortcut</Table.Th>
              <Table.Th>Action</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {SHORTCUTS.map((s) => (
              <Table.Tr key={s.action}>
                <Table.Td>
                  {s.keys.map((combo, i) => (
                    <span key={combo.join('+')}>
                      {i > 0 && ' or '}
                      {combo.map((k, j) => (
                        <span key={k}>
                          {j > 0 && ' + '}
                          <Kbd size="xs">{k}</Kbd>
                        </span>
                      ))}
                    </span>
                  ))}
                </Table.Td>
                <Table.Td>{s.action}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Modal>
  );
}
