import { workflowInputSchema, type AnyEntity, type WorkflowButton } from '@campus/entities/define';
import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../lib/toast';
import type { EntityRow } from './entity-api';
import { firstMissingEditable } from './entity-form';
import { FieldInput } from './field-input';
import { formValuesToBody, linkPartners, withChange, type FormField, type FormValue, type FormValues } from './form-values';
import { workflowButtonTexts, workflowInputFields, workflowLinkLabels, workflowStartValues } from './workflow-buttons';

/** The route's refusal of the last attempt: its sentence, and per input what it said (400/409 details). */
export interface WorkflowRefusal {
  message: string;
  fields: Readonly<Record<string, string>>;
}

export interface WorkflowButtonDialogProps {
  opened: boolean;
  entity: AnyEntity;
  button: WorkflowButton;
  /** The selected row: named in the question, and the start of inputs named like its fields. */
  row: EntityRow;
  busy: boolean;
  refusal?: WorkflowRefusal | null;
  onCancel: () => void;
  /** The reason (when asked) and the inputs converted to the body's shape, already checked as the route will. */
  onConfirm: (reason: string, inputs: Record<string, unknown>) => void;
}

const REASON_MAX = 500;

function focusField(name: string): void {
  document.getElementById(name)?.focus();
}

/**
 * The inputs' own rules without the parts the page adds (the opening's key) or this dialog asks separately
 * (the reason): the same workflowInputSchema the route checks the whole body with.
 */
function inputsSchema(b: WorkflowButton) {
  const omit: Record<string, true> = {};
  if (b.idempotent) omit.idempotency_key = true;
  if (b.reason) omit.reason = true;
  return workflowInputSchema(b).omit(omit);
}

/**
 * Confirms a workflow button on one row (cancel a bill, top up a wallet) and takes what the button declares:
 * a required reason (confirming is offered only once it holds more than spaces, as the server requires) and
 * inputs shown with the entity form's own field inputs, started from the row and the declared defaults. A
 * required input left empty is named as the form names it; other rules are the route's own schema, so the
 * dialog refuses exactly what the server would. The server's refusal stays in the dialog, so the user can
 * correct the amount and try again.
 */
export function WorkflowButtonDialog({ opened, entity, button, row, busy, refusal, onCancel, onConfirm }: WorkflowButtonDialogProps) {
  const { t } = useTranslation();
  const texts = workflowButtonTexts(t, entity, button, row);
  const fields = useMemo(() => workflowInputFields(button), [button]);
  const linkLabels = useMemo(() => workflowLinkLabels(button, row), [button, row]);
  // Each opening starts afresh (the page mounts the dialog per opening): nothing typed for one row is sent for the next.
  const [reason, setReason] = useState('');
  const start = useMemo(() => workflowStartValues(button, row), [button, row]);
  const [values, setValues] = useState<FormValues>(start);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const shownErrors = { ...(refusal?.fields ?? {}), ...errors };
  const ready = texts.reason === null || reason.trim() !== '';
  const labelOf = (f: FormField): string => texts.input(f.name);

  const setValue = (name: string, v: FormValue) => {
    setValues((prev) => withChange(fields, prev, name, v));
    // '' rather than removing it: also hides what the server said about the value just changed.
    setErrors((prev) => ({ ...prev, [name]: '' }));
  };

  const dependentLink = (f: FormField): { partners?: Record<string, string>; waitingFor?: string | null } => {
    if (f.field.kind !== 'link' || !f.field.within) return {};
    const { partners, waitingFor } = linkPartners(fields, values, f.field);
    const partner = waitingFor ? fields.find((x) => x.name === waitingFor) : undefined;
    return { partners, waitingFor: partner ? labelOf(partner) : null };
  };

  const confirm = () => {
    if (busy || !ready) return;
    const missing = firstMissingEditable(fields, values, { labelOf, t });
    if (missing) {
      toast.warning(missing.message);
      setErrors({ [missing.fieldName]: missing.message });
      focusField(missing.fieldName);
      return;
    }
    const { body, errors: converted } = formValuesToBody(fields, values);
    const checked = inputsSchema(button).safeParse(body);
    const next: Record<string, string> = { ...converted };
    if (!checked.success) for (const i of checked.error.issues) next[String(i.path[0] ?? '')] ??= i.message;
    const first = fields.find((f) => next[f.name]);
    if (first) {
      setErrors(next);
      focusField(first.name);
      return;
    }
    onConfirm(reason, body);
  };

  return (
    <Modal opened={opened} onClose={onCancel} title={texts.label} centered size={fields.length > 0 ? 'md' : 'sm'}>
      {/* A form, so Enter in an input confirms as the Save of a form does. */}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          confirm();
        }}
      >
        <Stack gap="md">
          <Text size="sm" data-testid="workflow-confirm">
            {texts.confirm}
          </Text>
          {fields.map((f) => (
            <FieldInput
              key={f.name}
              name={f.name}
              field={f.field}
              label={labelOf(f)}
              optionLabel={(v) => texts.option(f.name, v)}
              value={values[f.name] ?? null}
              onChange={(v) => setValue(f.name, v)}
              error={shownErrors[f.name] || undefined}
              disabled={busy}
              linkLabel={values[f.name] !== null && values[f.name] === start[f.name] ? linkLabels[f.name] : undefined}
              {...dependentLink(f)}
            />
          ))}
          {texts.reason !== null && (
            <Textarea
              label={texts.reason}
              required
              autosize
              minRows={2}
              maxLength={REASON_MAX}
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              disabled={busy}
              data-autofocus={fields.length === 0 ? true : undefined}
              data-testid="workflow-reason"
            />
          )}
          {refusal && (
            <Alert color="red" icon={<IconAlertTriangle size={16} />} data-testid="workflow-error">
              {refusal.message}
            </Alert>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onCancel} disabled={busy}>
              {t('btn.close', { defaultValue: 'Close' })}
            </Button>
            <Button type="submit" color={fields.length > 0 ? undefined : 'red'} disabled={!ready} loading={busy} data-testid="workflow-ok">
              {texts.label}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
