import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface WorkflowButtonDialogProps {
  opened: boolean;
  /** The button's label: the dialog's title and its confirming button. */
  title: string;
  /** The question, naming the row. */
  message: string;
  /** Label of the required reason; no reason box when null. */
  reasonLabel: string | null;
  busy: boolean;
  onCancel: () => void;
  onConfirm: (reason: string) => void;
}

const REASON_MAX = 500;

/**
 * Confirms a workflow button on one row (cancel a bill) and, when the button asks for one, takes the reason:
 * confirming is offered only once the reason holds more than spaces, as the server requires.
 */
export function WorkflowButtonDialog({ opened, title, message, reasonLabel, busy, onCancel, onConfirm }: WorkflowButtonDialogProps) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  // Each opening starts empty: a reason typed for one bill must not be sent for the next.
  useEffect(() => {
    if (opened) setReason('');
  }, [opened]);
  const ready = reasonLabel === null || reason.trim() !== '';
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered size="sm">
      <Stack gap="md">
        <Text size="sm" data-testid="workflow-confirm">
          {message}
        </Text>
        {reasonLabel !== null && (
          <Textarea
            label={reasonLabel}
            required
            autosize
            minRows={2}
            maxLength={REASON_MAX}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            disabled={busy}
            data-autofocus
            data-testid="workflow-reason"
          />
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            {t('btn.close', { defaultValue: 'Close' })}
          </Button>
          <Button color="red" onClick={() => onConfirm(reason)} disabled={!ready} loading={busy} data-testid="workflow-ok">
            {title}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
