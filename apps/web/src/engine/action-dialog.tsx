import { Badge, Button, Group, Modal, Radio, Stack } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface ActionDialogProps {
  opened: boolean;
  /** The button's label in the current language: the dialog's title. */
  title: string;
  /** The status field's label in the current language. */
  fieldLabel: string;
  options: readonly string[];
  /** An option's label in the current language (stored values stay as they are). */
  labelOf?: (value: string) => string;
  /** The selected row's stored value, marked in the list. */
  current: string | null;
  busy: boolean;
  onCancel: () => void;
  onConfirm: (value: string) => void;
}

/**
 * 'Take action' on a status field (spec section 4): choose the row's new status among the field's options.
 * Saving is offered only once another status than the current one is chosen: saving the same one would be
 * a PUT that changes nothing.
 */
export function ActionDialog({ opened, title, fieldLabel, options, labelOf = (v) => v, current, busy, onCancel, onConfirm }: ActionDialogProps) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<string | null>(current);
  // Each opening starts from the row's own status, not from the previous row's choice.
  useEffect(() => {
    if (opened) setChosen(current);
  }, [opened, current]);
  const changed = chosen !== null && chosen !== current;
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered size="sm">
      <Stack gap="md">
        <Radio.Group label={fieldLabel} value={chosen} onChange={setChosen} data-testid="action-options">
          <Stack gap={6} mt={6}>
            {options.map((o) => (
              <Group key={o} gap="xs">
                <Radio value={o} label={labelOf(o)} disabled={busy} />
                {o === current && (
                  <Badge size="xs" variant="light" data-testid="action-current">
                    {t('list.current', { defaultValue: 'current' })}
                  </Badge>
                )}
              </Group>
            ))}
          </Stack>
        </Radio.Group>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            {t('btn.cancel', { defaultValue: 'Cancel' })}
          </Button>
          <Button onClick={() => chosen !== null && onConfirm(chosen)} disabled={!changed} loading={busy} data-testid="action-save">
            {t('btn.save', { defaultValue: 'Save' })}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
