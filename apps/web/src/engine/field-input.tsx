import type { Field, SelectField } from '@campus/entities/define';
import { CloseButton, FileInput, Group, MultiSelect, NumberInput, PasswordInput, Pill, Select, Stack, Switch, Textarea, TextInput } from '@mantine/core';
// The date pickers' styles come with the screens that show them, not with the sign-in page or a list.
import '@mantine/dates/styles.css';
import { DateInput, DateTimePicker, TimeInput } from '@mantine/dates';
import { IconCalendar, IconUpload } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HttpError, http } from '../lib/http-client';
import { DATE_FORMAT, DATE_TIME_FORMAT } from '../lib/format';
import { toast } from '../lib/toast';
import { imageAccept, localFieldMessage, parseTypedDate, preventNegativeKeystroke } from '../lib/validation';
import { declaredOptionLabel, optionLabel, type Translate } from './entity-labels';
import { fieldOwner } from './field-owner';
import { LocalFile, StoredFile, uploadUrl, useRouteRow, useRowFileUrl } from './file-preview';
import type { FormValue } from './form-values';
import { LinkSelect } from './link-select';
import { hiddenCount, multiSelectFormValue, multiSelectValues, pillSlot } from './multi-select-value';
import { uploadRuleError } from './upload-rule';

export interface FieldInputProps {
  name: string;
  field: Field;
  value: FormValue;
  onChange: (value: FormValue) => void;
  error?: string;
  disabled?: boolean;
  /** Update mode: an empty password means "keep the current one". */
  passwordOptional?: boolean;
  /** Label of a link's current value, from the loaded row. */
  linkLabel?: string;
  /** The label shown (translated by the form); the declared label when not given. */
  label?: string;
  /**
   * A select's option labels, for a field that is no entity's field (a workflow dialog's input, whose keys are
   * the button's): by default an entity field's option.<entity>.<field>.<value>, else the declared label.
   */
  optionLabel?: (value: string) => string;
  /** A dependent link's chosen partners and the partner it still waits for (see LinkSelect). */
  partners?: Readonly<Record<string, string>>;
  waitingFor?: string | null;
}

/**
 * The dropdown's items: the stored option as value, its label (translated like the grid's cells) as what
 * people read and search by, so picking 'School' still sends 'school'.
 */
function optionData(t: Translate, field: SelectField, given?: (value: string) => string): { value: string; label: string }[] {
  const owner = fieldOwner(field);
  const labelOf = (v: string): string => given?.(v) ?? (owner ? optionLabel(t, owner.entity, owner.fieldName, v) : declaredOptionLabel(field, v));
  return field.options.map((value) => ({ value, label: labelOf(value) }));
}

// Money is kept as the typed string: at most 10 integer digits and 2 decimals, never negative.
const MONEY_TYPING = /^\d{0,10}(\.\d{0,2})?$/;

/** Pads a finished amount to 2 decimals ('12.5' -> '12.50') so what is shown is what is stored. */
function padMoney(v: string): string {
  const t = v.trim();
  if (t === '' || !/^\d+(\.\d*)?$/.test(t)) return t;
  const [i, d = ''] = t.split('.');
  return `${i === '' ? '0' : i}.${(d + '00').slice(0, 2)}`;
}

/**
 * Uploads on choose (the server checks the content again and answers a file_id, which the form's value
 * becomes until the row is saved). Shows the chosen file, or the saved row's file fetched as a blob, and
 * lets the user clear it (an update then sends null, which releases the stored file).
 */
function UploadInput({ name, field, value, onChange, error, disabled, label }: FieldInputProps & { field: Extract<Field, { kind: 'image' | 'file' }> }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [fresh, setFresh] = useState<{ fileId: string; file: File } | null>(null);
  const { entity, mode } = useRouteRow();
  const storedUrl = useRowFileUrl(name);
  const allowPdf = field.kind === 'file' || field.allowPdf === true;
  const current = typeof value === 'string' && value !== '' ? value : null;
  const chosen = fresh && current === fresh.fileId ? fresh : null;
  // A clone starts from the source row's file name, which is no upload of this form: the server would refuse it.
  const cloned = mode?.kind === 'clone' && current !== null && !chosen;
  useEffect(() => {
    if (cloned) onChange('');
  }, [cloned, onChange]);

  const pick = async (file: File | null) => {
    if (!file) {
      setFresh(null);
      onChange('');
      return;
    }
    const problem = uploadRuleError(field, file.name);
    if (problem) {
      toast.warning(problem);
      return;
    }
    if (!entity) {
      toast.warning('Files can be uploaded only from an entity form.');
      return;
    }
    const fd = new FormData();
    fd.append('file', file);
    setBusy(true);
    try {
      const res = await http.upload<{ file_id: string }>(uploadUrl(entity, name), fd);
      setFresh({ fileId: res.file_id, file });
      onChange(res.file_id);
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
    } finally {
      setBusy(false);
    }
  };

  const preview = chosen ? (
    <LocalFile file={chosen.file} testId={`${name}-preview`} />
  ) : current && !cloned ? (
    <StoredFile url={storedUrl} name={current} testId={`${name}-preview`} />
  ) : null;

  return (
    <Stack gap={4}>
      <FileInput
        id={name}
        name={name}
        label={label ?? field.label}
        withAsterisk={field.required}
        placeholder={current && !chosen && !cloned ? current : (field.placeholder ?? t('form.choose_file', { defaultValue: 'Choose a file' }))}
        accept={imageAccept({ allowPdf })}
        leftSection={<IconUpload size={14} />}
        value={chosen?.file ?? null}
        onChange={(f) => void pick(f)}
        clearable
        disabled={disabled || busy}
        error={error}
        description={busy ? t('form.uploading', { defaultValue: 'Uploading…' }) : undefined}
      />
      {preview && (
        <Group gap="xs" justify="space-between" wrap="nowrap">
          {preview}
          {!disabled && (
            <CloseButton size="sm" aria-label={t('form.remove_file', { label: label ?? field.label, defaultValue: 'Remove {{label}}' })} data-testid={`${name}-remove`} onClick={() => void pick(null)} />
          )}
        </Group>
      )}
    </Stack>
  );
}

/**
 * A multiple select (spec section 9): searchable, showing the first 3 chosen items as pills and one
 * "+N more" pill for the rest, so a long choice does not grow the form. Mantine's MultiSelect has no
 * display limit of its own (9.x); its renderPill is called once per chosen value, which is enough to
 * hide pills past the third. The value stays the stored comma string in declared option order.
 */
function MultiSelectInput({ name, field: f, value, onChange, error, disabled, label, optionLabel: givenOptionLabel }: FieldInputProps & { field: SelectField; label: string }) {
  const { t } = useTranslation();
  const chosen = multiSelectValues(value);
  const more = hiddenCount(chosen.length);
  const data = optionData(t, f, givenOptionLabel);
  const labelOf = (v: string): string => data.find((o) => o.value === v)?.label ?? v;
  return (
    <MultiSelect
      id={name}
      name={name}
      label={label}
      withAsterisk={f.required === true}
      error={error}
      disabled={disabled}
      // A placeholder beside pills reads as another choice; show it only while nothing is chosen.
      placeholder={chosen.length === 0 ? (f.placeholder ?? t('form.choose', { defaultValue: 'Choose...' })) : undefined}
      data={data}
      value={chosen}
      onChange={(v) => onChange(multiSelectFormValue(f.options, v))}
      searchable
      clearable={!disabled}
      nothingFoundMessage={t('form.no_options', { defaultValue: 'Nothing found' })}
      comboboxProps={{ withinPortal: true }}
      renderPill={({ option, value: v, onRemove, disabled: off }) => {
        const slot = pillSlot(chosen.indexOf(String(v)));
        if (slot === 'hidden') return null;
        if (slot === 'more') {
          return (
            <Pill disabled={off} title={chosen.slice(-more).map(labelOf).join(', ')} data-testid={`${name}-more`}>
              {/* Not {{count}}: that option turns on i18next plurals, which misfire on our file names as languages. */}
              {t('form.more_selected', { n: more, defaultValue: '+{{n}} more' })}
            </Pill>
          );
        }
        return (
          <Pill withRemoveButton={!off} onRemove={onRemove} disabled={off}>
            {option?.label ?? String(v)}
          </Pill>
        );
      }}
    />
  );
}

/**
 * A date typed or picked (spec section 9 shows YYYY/MMM/DD). Typing takes the display format and the
 * forms an office uses (25/03/2014, 25-03-2014, 2014-03-25: lib/validation parseTypedDate); a date that
 * cannot be read says so under the box on leaving it and is kept as typed, so the save refuses it with
 * the same message instead of silently keeping the previous date.
 */
function TypedDateInput({ name, field: f, value, onChange, error, disabled, label, common }: FieldInputProps & { label: string; common: Record<string, unknown> }) {
  const { t } = useTranslation();
  const str = typeof value === 'string' ? value : '';
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(str) ? str : null;
  // While the box holds unreadable text the calendar keeps the last good day (a null would wipe the text).
  const shown = useRef<string | null>(valid);
  if (valid !== null || str === '') shown.current = valid;
  const [typedError, setTypedError] = useState<string | null>(null);
  // What the box holds as typed: readable text is redrawn in the display format on leaving the box
  // (25/03/2014 -> 2014/Mar/25), unreadable text is left for the user to correct.
  const [typed, setTyped] = useState('');
  return (
    <DateInput
      {...common}
      id={name}
      name={name}
      label={label}
      error={error ?? typedError ?? undefined}
      disabled={disabled}
      value={shown.current}
      onChange={(v) => {
        setTypedError(null);
        onChange(v ?? '');
      }}
      dateParser={parseTypedDate}
      fixOnBlur={typed.trim() === '' || parseTypedDate(typed) !== null}
      onInput={(e) => setTyped(e.currentTarget.value)}
      valueFormat={DATE_FORMAT}
      clearable={!f.required}
      leftSection={<IconCalendar size={14} />}
      placeholder={f.placeholder ?? t('form.date_placeholder', { defaultValue: 'YYYY/MMM/DD or DD/MM/YYYY' })}
      onBlur={(e) => {
        const text = e.currentTarget.value.trim();
        if (text === '') {
          setTypedError(null);
          if (str !== '') onChange('');
          return;
        }
        const day = parseTypedDate(text);
        if (day) {
          setTypedError(null);
          if (day !== str) onChange(day);
        } else {
          setTypedError(localFieldMessage('not_a_date', label, t));
          onChange(text);
        }
      }}
    />
  );
}

/** One editable input per declared field kind; id and name are the field name so validation can focus it. */
export function FieldInput(props: FieldInputProps) {
  const { name, field: f, value, onChange, error, disabled } = props;
  const { t } = useTranslation();
  const label = props.label ?? f.label;
  const common = {
    id: name,
    name,
    label,
    placeholder: f.placeholder,
    withAsterisk: f.required === true && !(f.kind === 'password' && props.passwordOptional),
    error,
    disabled,
  };
  const str = typeof value === 'string' ? value : value === null ? '' : String(value);

  switch (f.kind) {
    case 'text':
      return f.multiline ? (
        <Textarea {...common} value={str} onChange={(e) => onChange(e.currentTarget.value)} autosize minRows={2} maxRows={8} maxLength={f.max} />
      ) : (
        <TextInput
          {...common}
          value={str}
          onChange={(e) => onChange(e.currentTarget.value)}
          maxLength={f.max}
          type={f.format === 'email' ? 'email' : f.format === 'phone' ? 'tel' : 'text'}
          styles={f.format === 'upper-code' ? { input: { textTransform: 'uppercase' } } : undefined}
        />
      );
    case 'number':
      return (
        <NumberInput
          {...common}
          value={typeof value === 'number' ? value : str}
          onChange={(v) => onChange(v === '' ? '' : typeof v === 'number' ? v : Number(v))}
          min={f.min}
          max={f.max}
          allowDecimal={!f.int}
          allowNegative={f.min < 0}
          onKeyDown={f.min >= 0 ? preventNegativeKeystroke : undefined}
          hideControls
        />
      );
    case 'money':
      return (
        <TextInput
          {...common}
          inputMode="decimal"
          value={str}
          onChange={(e) => {
            const next = e.currentTarget.value;
            // A keystroke that would break the amount format is ignored, like the original's numeric filter.
            if (MONEY_TYPING.test(next)) onChange(next);
          }}
          onKeyDown={preventNegativeKeystroke}
          onBlur={() => onChange(padMoney(str))}
          styles={{ input: { textAlign: 'right' } }}
        />
      );
    case 'date':
      return <TypedDateInput {...props} label={label} common={common} />;
    case 'time':
      return <TimeInput {...common} withSeconds value={str} onChange={(e) => onChange(e.currentTarget.value)} />;
    case 'datetime':
      return (
        <DateTimePicker
          {...common}
          withSeconds
          valueFormat={DATE_TIME_FORMAT}
          value={str === '' ? null : dayjs(str).format('YYYY-MM-DD HH:mm:ss')}
          // The API takes an ISO timestamp with offset (define.ts), not Mantine's local string.
          onChange={(v) => onChange(v ? dayjs(v).format() : '')}
          clearable={!f.required}
        />
      );
    case 'bool':
      return (
        <Switch
          id={name}
          name={name}
          label={label}
          checked={value === true}
          onChange={(e) => onChange(e.currentTarget.checked)}
          disabled={disabled}
          error={error}
          mb={6}
        />
      );
    case 'select':
      if (f.multiple) return <MultiSelectInput {...props} field={f} label={label} />;
      return (
        <Select
          {...common}
          placeholder={f.placeholder ?? t('form.select_label', { label, defaultValue: 'Select {{label}}' })}
          data={optionData(t, f, props.optionLabel)}
          value={str === '' ? null : str}
          onChange={(v) => onChange(v)}
          clearable={!f.required}
          searchable={f.options.length > 7}
          allowDeselect={!f.required}
          comboboxProps={{ withinPortal: true }}
        />
      );
    case 'link':
      return (
        <LinkSelect
          name={name}
          field={f}
          value={str === '' ? null : str}
          onChange={onChange}
          knownLabel={props.linkLabel}
          label={label}
          partners={props.partners}
          waitingFor={props.waitingFor}
          error={error}
          disabled={disabled}
        />
      );
    case 'password':
      return (
        <PasswordInput
          {...common}
          value={str}
          onChange={(e) => onChange(e.currentTarget.value)}
          autoComplete="new-password"
          description={
            props.passwordOptional
              ? t('form.password_keep', { defaultValue: 'Leave empty to keep the current password' })
              : t('form.password_min', { n: f.min, defaultValue: 'At least {{n}} characters' })
          }
        />
      );
    case 'json':
      return (
        <Textarea
          {...common}
          value={str}
          onChange={(e) => onChange(e.currentTarget.value)}
          autosize
          minRows={3}
          maxRows={14}
          styles={{ input: { fontFamily: 'monospace', fontSize: 12 } }}
        />
      );
    case 'image':
    case 'file':
      return <UploadInput {...props} field={f} />;
    case 'code':
      return <TextInput {...common} value={str} readOnly />;
  }
}
