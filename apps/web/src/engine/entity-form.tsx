import { fieldButtons, hasRoute, type AnyEntity } from '@campus/entities/define';
import type { PageDef } from '@campus/entities/pages';
import { Alert, Box, Button, Grid, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useHotkeys, useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle, IconArrowLeft, IconDeviceFloppy, IconPencil, IconRefresh } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isOwnProfilePath, usePagePermission } from '../app/page-permission-context';
import { HttpError, http } from '../lib/http-client';
import { useSession } from '../lib/session-store';
import { toast } from '../lib/toast';
import { isEmptyValue, localRequiredMessage, type TranslateFn } from '../lib/validation';
import { formatCell } from './cell-format';
import { entityUrl, type EntityRow } from './entity-api';
import { entityLabel, fieldLabel, type Translate } from './entity-labels';
import { modePath, type FormModeKind } from './entity-mode';
import { FieldInput } from './field-input';
import { ViewFile } from './file-preview';
import { fieldOwner } from './field-owner';
import { changedFields, createBody, formFields, formValuesToBody, isWide, linkPartners, rowToFormValues, withChange, type FormField, type FormValue, type FormValues } from './form-values';
import { MOBILE_QUERY } from './responsive';
import { lastListSearch, listQueryKey } from './use-entity-list';

export interface EntityFormProps {
  entity: AnyEntity;
  page: PageDef;
  mode: FormModeKind;
  /** Key of the row for update, view and clone. */
  id?: string;
  /**
   * Whether the page can update a row at all (the generic update route, or a hand-written update screen):
   * a view of a row nobody can change offers no 'Edit'. The entity's update route when not given.
   */
  updatable?: boolean;
}

// English fallbacks of the mode.* keys, the words the page title (lib/page-title.ts) uses for the same modes.
const titles: Record<FormModeKind, string> = { create: 'Create', update: 'Update', view: 'View', clone: 'Clone' };

export interface RequiredCheckOptions {
  /** Update mode: an empty password keeps the current one, so it is never missing. */
  passwordOptional?: boolean;
  /** The field's label as shown (translated); the declared label otherwise. */
  labelOf?: (f: FormField) => string;
  /** The language's t for the message (spec section 5 wording in English); i18next's own when not given. */
  t?: TranslateFn;
}

/**
 * Spec section 5 over the form as shown: the first required field that is empty AND that the user can
 * fill (editable in this mode; a switch is never empty). An empty field the user cannot change (an
 * immutable one on update) is passed over rather than ending the check, so a later empty field is still
 * reported instead of the save going to the server and failing there.
 */
export function firstMissingEditable(fields: readonly FormField[], values: FormValues, opts: RequiredCheckOptions = {}): { fieldName: string; message: string } | null {
  for (const ff of fields) {
    const f = ff.field;
    if (!ff.editable || !f.required || f.kind === 'bool') continue;
    if (f.kind === 'password' && opts.passwordOptional) continue;
    if (!isEmptyValue(values[ff.name])) continue;
    const label = opts.labelOf?.(ff) ?? f.label;
    return { fieldName: ff.name, message: localRequiredMessage({ ...f, label }, opts.t) };
  }
  return null;
}

function focusField(name: string): void {
  const el = document.getElementById(name);
  if (el) {
    el.focus();
    el.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
  }
}

/** A read-only value in view mode: the same text the grid shows (links by name, dates and money formatted). */
function ViewValue({ field: ff, row, label }: { field: FormField; row: EntityRow; label: string }) {
  const f = ff.field;
  const { t } = useTranslation();
  if (f.kind === 'image' || f.kind === 'file') return <ViewFile name={ff.name} label={label} value={row[ff.name]} />;
  const raw = f.kind === 'link' ? (row[f.as] ?? row[ff.name]) : row[ff.name];
  // Option keys name the declaring entity, which the form's fields do not carry (see fieldOwner).
  const owner = fieldOwner(f);
  // JSON (e.g. an audit row's before/after) is indented so it can be read; everything else as in the grid.
  const text =
    f.kind === 'json' && raw !== null && raw !== undefined && typeof raw !== 'string'
      ? JSON.stringify(raw, null, 2)
      : formatCell(f, raw, { t, entity: owner?.entity, fieldName: owner?.fieldName });
  const long = isWide(f);
  return (
    <Box>
      <Text size="xs" c="dimmed" fw={500}>
        {label}
      </Text>
      <Text
        size="sm"
        id={ff.name}
        style={{ whiteSpace: long ? 'pre-wrap' : undefined, fontFamily: f.kind === 'json' ? 'monospace' : undefined, wordBreak: 'break-word' }}
      >
        {text === '' ? '—' : text}
      </Text>
    </Box>
  );
}

/**
 * Create, update, view and clone forms generated from the declaration. Update sends only the changed
 * fields with row_ver; a stale row_ver (409) offers to reload instead of overwriting someone's edit.
 */
export function EntityForm({ entity, page, mode, id, updatable = hasRoute(entity, 'update') }: EntityFormProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  const tr: Translate = t;
  const { can, selfOnly } = usePagePermission();
  const { user } = useSession();
  const mobile = useMediaQuery(MOBILE_QUERY) ?? false;
  // Clone starts from a loaded row but is a create: the key is not writable, so it is never sent.
  const inputMode: FormModeKind = mode === 'clone' ? 'create' : mode;
  // My Profile: one's own row opens without the 'edit' button, offering only its self-service fields.
  const ownProfile = (mode === 'update' || mode === 'view') && isOwnProfilePath(entity.name, `${mode}/${id ?? ''}`, user?.usr_cd);
  const selfEdit = ownProfile && !can('edit');
  const fields = useMemo(() => {
    const all = formFields(entity, inputMode);
    const selfServed = selfEdit && inputMode === 'update' ? all.filter((f) => (entity.selfService ?? []).includes(f.name)) : all;
    // One's own password is changed with Change Password, which asks for the current one; the server refuses
    // it from this form, so the form does not offer it.
    const mine = ownProfile ? selfServed.filter((f) => f.field.kind !== 'password') : selfServed;
    // A toggle or status field changes only through its own button (as the server insists): without it the
    // form shows the value but does not offer a change the server would refuse.
    const buttonOf = new Map(fieldButtons(entity).map((b) => [b.field, b.button]));
    return mine.map((f) => {
      const button = buttonOf.get(f.name);
      return button && !can(button) ? { ...f, editable: false } : f;
    });
  }, [entity, inputMode, selfEdit, ownProfile, can]);
  const needsRow = mode !== 'create';

  const rowQuery = useQuery({
    queryKey: ['entity-row', entity.name, id],
    queryFn: ({ signal }) => http.get<EntityRow>(entityUrl(entity, id ?? ''), { signal }),
    enabled: needsRow && !!id,
    // A form must start from the row as it is now, not from a cached copy.
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
    retry: false,
  });
  const row = rowQuery.data ?? null;

  const [values, setValues] = useState<FormValues>(() => rowToFormValues(fields, null));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [stale, setStale] = useState(false);
  const [saving, setSaving] = useState(false);
  const initialBody = useRef<Record<string, unknown>>({});

  // (Re)start the form whenever a row arrives: first load, or a reload after a 409.
  useEffect(() => {
    if (needsRow && !row) return;
    const start = rowToFormValues(fields, row);
    setValues(start);
    setErrors({});
    initialBody.current = formValuesToBody(fields, start).body;
  }, [row, fields, needsRow]);

  const backToTable = () => {
    // Without the page there is no list to go back to: the profile, or the dashboard from it.
    if (selfOnly) navigate(mode === 'update' && id ? modePath(page.module, page.page, 'view', id) : '/sms/dashboard');
    else navigate(`${modePath(page.module, page.page, 'table')}${lastListSearch(entity.name)}`);
  };

  const setValue = (name: string, v: FormValue) => {
    setValues((prev) => withChange(fields, prev, name, v));
    if (errors[name]) setErrors((prev) => Object.fromEntries(Object.entries(prev).filter(([k]) => k !== name)));
  };

  const labelOf = (f: FormField): string => fieldLabel(tr, entity, f.name);
  // A dependent link offers the rows of its chosen partner, and waits (named) while that is empty.
  const dependentLink = (f: FormField): { partners?: Record<string, string>; waitingFor?: string | null } => {
    if (f.field.kind !== 'link' || !f.field.within) return {};
    const { partners, waitingFor } = linkPartners(fields, values, f.field);
    const partner = waitingFor ? fields.find((x) => x.name === waitingFor) : undefined;
    return { partners, waitingFor: partner ? labelOf(partner) : null };
  };
  const canEdit = mode === 'view' && updatable && (can('edit') || ownProfile) && !!id;
  const canCreate = mode === 'view' && hasRoute(entity, 'create') && can('create');
  const openUpdate = () => {
    if (canEdit && id) navigate(modePath(page.module, page.page, 'update', id));
  };

  // Spec section 6 on a view form, as on the list: Ctrl+E / Ctrl+U edit this row, Alt+N a new one. The
  // browser's own Ctrl+U (view source) and Ctrl+E (search bar) are prevented even without the button,
  // because useHotkeys prevents the default of every key it handles. Other modes have inputs where these
  // keys would lose typed data, so they register nothing.
  useHotkeys(
    mode === 'view'
      ? [
          ['ctrl+E', openUpdate],
          ['ctrl+U', openUpdate],
          ['alt+N', () => canCreate && navigate(modePath(page.module, page.page, 'create'))],
        ]
      : [],
    [],
  );

  const reload = async () => {
    setStale(false);
    await rowQuery.refetch();
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (mode === 'view' || saving) return;

    const missing = firstMissingEditable(fields, values, { passwordOptional: mode === 'update', labelOf, t });
    if (missing) {
      toast.warning(missing.message);
      focusField(missing.fieldName);
      return;
    }

    const { body, errors: convErrors } = formValuesToBody(fields, values);
    if (Object.keys(convErrors).length > 0) {
      setErrors(convErrors);
      focusField(Object.keys(convErrors)[0]);
      return;
    }

    setSaving(true);
    try {
      if (inputMode === 'create') {
        await http.post(entityUrl(entity), createBody(body));
      } else {
        const patch = changedFields(initialBody.current, body);
        for (const f of fields) if (!f.editable) delete patch[f.name];
        if (Object.keys(patch).length === 0) {
          toast.info(t('form.nothing_changed', { defaultValue: 'Nothing has changed.' }));
          return;
        }
        await http.put(entityUrl(entity, id ?? ''), { ...patch, row_ver: row?.row_ver });
      }
      await queryClient.invalidateQueries({ queryKey: listQueryKey(entity.name) });
      backToTable();
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      // Field problems come as 400 (validation) or 409 (a unique value taken) with details per field.
      if (err.details && err.details.length > 0) {
        const next: Record<string, string> = {};
        for (const d of err.details) if (!next[d.field]) next[d.field] = d.message;
        setErrors(next);
        const first = fields.find((f) => next[f.name]);
        if (first) focusField(first.name);
      } else if (err.status === 409 && inputMode === 'update') {
        // A 409 without field details on update is the row_ver check: someone saved in between.
        setStale(true);
      }
    } finally {
      setSaving(false);
    }
  };

  const heading = ownProfile
    ? t('common.profile', { defaultValue: 'My Profile' })
    : `${t(`mode.${mode}`, { defaultValue: titles[mode] })} ${entityLabel(tr, entity)}`;

  if (needsRow && rowQuery.isError) {
    const notFound = rowQuery.error instanceof HttpError && rowQuery.error.status === 404;
    return (
      <Stack gap="sm" maw={900}>
        <Title order={4}>{heading}</Title>
        <Alert
          color="red"
          icon={<IconAlertTriangle size={18} />}
          title={notFound ? t('form.not_found_title', { defaultValue: 'Record not found' }) : t('form.load_failed_title', { defaultValue: 'Could not load the record' })}
        >
          {notFound
            ? t('form.not_found_text', { entity: entityLabel(tr, entity), defaultValue: 'This {{entity}} record does not exist, or it is not open to you.' })
            : t('form.load_failed_text', { defaultValue: 'Please try again.' })}
        </Alert>
        <Group>
          <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={backToTable}>
            {t('form.back_to_list', { defaultValue: 'Back to list' })}
          </Button>
          {!notFound && (
            <Button variant="light" leftSection={<IconRefresh size={16} />} onClick={() => void rowQuery.refetch()}>
              {t('btn.retry', { defaultValue: 'Retry' })}
            </Button>
          )}
        </Group>
      </Stack>
    );
  }

  const loading = needsRow && rowQuery.isPending;
  const span = (f: FormField) => (mobile || isWide(f.field) ? 12 : 6);

  return (
    <Box component="form" onSubmit={(e) => void submit(e)} noValidate maw={960} data-testid="entity-form">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={4}>{heading}</Title>
          {canEdit && (
            <Button size="xs" leftSection={<IconPencil size={14} />} onClick={openUpdate} data-testid="btn-edit">
              {t('btn.edit', { defaultValue: 'Edit' })}
            </Button>
          )}
        </Group>

        {stale && (
          <Alert
            color="orange"
            icon={<IconAlertTriangle size={18} />}
            title={t('form.stale_title', { defaultValue: 'This record was changed by someone else' })}
            data-testid="stale-alert"
          >
            <Stack gap="xs">
              <Text size="sm">
                {t('form.stale_text', {
                  defaultValue:
                    'It was saved by another user after you opened it, so your changes were not saved. Reload to see the current version; your unsaved edits on this form will be replaced.',
                })}
              </Text>
              <Group>
                <Button size="xs" color="orange" leftSection={<IconRefresh size={14} />} onClick={() => void reload()}>
                  {t('form.reload_record', { defaultValue: 'Reload record' })}
                </Button>
              </Group>
            </Stack>
          </Alert>
        )}

        <Paper withBorder p={mobile ? 'sm' : 'md'} radius="md">
          {loading ? (
            <Grid>
              {fields.map((f) => (
                <Grid.Col key={f.name} span={span(f)}>
                  <Skeleton height={52} />
                </Grid.Col>
              ))}
            </Grid>
          ) : (
            <Grid gap={{ base: 'sm', sm: 'md' }}>
              {fields.map((f) => (
                <Grid.Col
                  key={f.name}
                  span={span(f)}
                  // A switch has no label above it: sit it on the baseline of the inputs beside it.
                  style={f.field.kind === 'bool' && mode !== 'view' && !mobile ? { display: 'flex', alignItems: 'flex-end' } : undefined}
                >
                  {mode === 'view' && row ? (
                    <ViewValue field={f} row={row} label={labelOf(f)} />
                  ) : (
                    <FieldInput
                      name={f.name}
                      field={f.field}
                      label={labelOf(f)}
                      value={values[f.name] ?? null}
                      onChange={(v) => setValue(f.name, v)}
                      error={errors[f.name]}
                      disabled={!f.editable || saving}
                      passwordOptional={mode === 'update'}
                      linkLabel={f.field.kind === 'link' && row && mode !== 'create' ? (row[f.field.as] as string | undefined) ?? undefined : undefined}
                      {...dependentLink(f)}
                    />
                  )}
                </Grid.Col>
              ))}
            </Grid>
          )}
        </Paper>

        <Group justify="flex-end" gap="xs">
          <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={backToTable} disabled={saving}>
            {mode === 'view' ? t('btn.back', { defaultValue: 'Back' }) : t('btn.cancel', { defaultValue: 'Cancel' })}
          </Button>
          {mode !== 'view' && (
            <Button type="submit" leftSection={<IconDeviceFloppy size={16} />} loading={saving} disabled={loading || stale} data-testid="btn-save">
              {inputMode === 'create' ? t('btn.save', { defaultValue: 'Save' }) : t('btn.update', { defaultValue: 'Update' })}
            </Button>
          )}
        </Group>
      </Stack>
    </Box>
  );
}
