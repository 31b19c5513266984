import { Button, Group, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useEffect, useState, type FormEvent, type JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/format';
import type { EntryDates, ScheduleEntry } from './schedule-model';

/** A new entry's place (from a selection) or an own entry being changed. */
export type EntryDraft = { mode: 'create'; dates: EntryDates } | { mode: 'edit'; entry: ScheduleEntry };

interface Props {
  draft: EntryDraft | null;
  busy: boolean;
  onClose(): void;
  onSave(title: string, description: string): void;
  onDelete(entry: ScheduleEntry): void;
}

/** When an entry falls, as the dialog shows it: days, and the times of a timed entry. */
function whenOf(d: EntryDraft): string {
  const [from, to, fromTm, toTm] =
    d.mode === 'create'
      ? [d.dates.sch_evt_frm_dt, d.dates.sch_evt_to_dt, d.dates.sch_evt_frm_tm, d.dates.sch_evt_to_tm]
      : [d.entry.start, d.entry.end, d.entry.startTime, d.entry.endTime];
  const days = from === to ? formatDate(from) : `${formatDate(from)} - ${formatDate(to)}`;
  return fromTm && toTm ? `${days}, ${fromTm.slice(0, 5)} - ${toTm.slice(0, 5)}` : days;
}

/** Title (Enter saves) and an optional note; an own entry can also be deleted from here. */
export function EntryDialog({ draft, busy, onClose, onSave, onDelete }: Props): JSX.Element {
  const { t } = useTranslation();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  useEffect(() => {
    setTitle(draft?.mode === 'edit' ? draft.entry.title : '');
    setDescription(draft?.mode === 'edit' ? (draft.entry.description ?? '') : '');
  }, [draft]);
  const submit = (ev: FormEvent): void => {
    ev.preventDefault();
    if (title.trim() !== '') onSave(title.trim(), description.trim());
  };
  return (
    <Modal
      opened={draft !== null}
      onClose={onClose}
      title={draft?.mode === 'edit' ? t('schedule.edit_entry', { defaultValue: 'Edit entry' }) : t('schedule.new_entry', { defaultValue: 'New entry' })}
      centered
    >
      {draft && (
        <form onSubmit={submit}>
          <Stack gap="sm">
            <Text size="sm" c="dimmed" data-testid="schedule-entry-when">
              {whenOf(draft)}
            </Text>
            <TextInput
              data-autofocus
              required
              maxLength={200}
              label={t('schedule.entry_title', { defaultValue: 'Title' })}
              value={title}
              onChange={(e) => setTitle(e.currentTarget.value)}
            />
            <Textarea
              maxLength={1000}
              autosize
              minRows={2}
              label={t('schedule.entry_note', { defaultValue: 'Note' })}
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
            />
            <Group justify="space-between">
              {draft.mode === 'edit' ? (
                <Button color="red" variant="light" loading={busy} onClick={() => onDelete(draft.entry)}>
                  {t('schedule.delete_entry', { defaultValue: 'Delete' })}
                </Button>
              ) : (
                <span />
              )}
              <Group gap="xs">
                <Button variant="default" onClick={onClose}>
                  {t('schedule.cancel', { defaultValue: 'Cancel' })}
                </Button>
                <Button type="submit" loading={busy} disabled={title.trim() === ''}>
                  {t('schedule.save_entry', { defaultValue: 'Save' })}
                </Button>
              </Group>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
