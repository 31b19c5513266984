import type { AnyEntity, LinkField } from '@campus/entities/define';
import { NOTIFICATION_DAYS, notificationMapping } from '@campus/entities/features/notification.entity';
import { findPage, pagesOfEntity } from '@campus/entities/pages';
import { entity as entityNamed, findEntity } from '@campus/entities/registry';
import { ActionIcon, Alert, Badge, Button, Group, MultiSelect, NumberInput, Paper, ScrollArea, SegmentedControl, Select, SimpleGrid, Skeleton, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { IconDeviceFloppy, IconEye, IconPlus, IconTrash, IconX } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { entityUrl, type EntityRow } from '../../engine/entity-api';
import { fieldLabel, pageLabel } from '../../engine/entity-labels';
import { modePath, parseMode } from '../../engine/entity-mode';
import { FieldInput } from '../../engine/field-input';
import type { FormValue } from '../../engine/form-values';
import { LinkSelect } from '../../engine/link-select';
import { lastListSearch, listQueryKey } from '../../engine/use-entity-list';
import { http, HttpError } from '../../lib/http-client';
import { toast } from '../../lib/toast';
import { localRequiredMessage } from '../../lib/validation';
import { useMyPages } from '../custom-report/use-my-pages';
import { emptyDraft, draftOf, ruleParts, takesList, takesNoValue, type DraftCondition, type RuleDraft, type RuleOp } from './rule-draft';

const MODULE = 'features';
const PAGE = 'notification';
const DETAIL_FIELDS = ['ntf_cd', 'ntf_nm', 'ntf_mapp_day', 'ntf_mapp_odr', 'ntf_dscr'] as const;

interface QueryField {
  name: string;
  label: string;
  kind: string;
  ops: RuleOp[];
  options?: string[];
}

interface Mapping {
  ntf_mapp_cd: number;
  ntf_id: number;
  ntf_mapp_usr_cd: number;
  usr_full_nm: string;
  ntf_mapp_day: string;
  ntf_mapp_sts: boolean;
  ntf_mapp_odr: number | null;
  /** Also e-mail each new notification to the employee's address on record. */
  ntf_mapp_eml: boolean;
  /** Whether the employee has an e-mail address on record (the address itself is not sent). */
  usr_has_eml: boolean;
}

/** GET /api/message/mail-status: whether the server can send e-mail (SMTP_URL), and the sentence when not. */
interface MailStatus {
  enabled: boolean;
  message?: string;
}

/**
 * Create and update screen of a notification rule, built without typing JSON: the entity (only pages the
 * user may open), its columns, conditions (field, operator, value), a date window relative to the run day,
 * group, order and limit; a preview with the user's own scope; and, once saved, who gets it on which day.
 * Saved through the generic POST/PUT, where the server checks the whole definition against the registry.
 */
export function NotificationRuleEditorPage(): JSX.Element {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const params = useParams();
  const mode = parseMode(params['*']);
  const id = mode && (mode.kind === 'update' || mode.kind === 'view') ? mode.id : null;
  const self = entityNamed('notification');
  const my = useMyPages();

  const stored = useQuery({
    queryKey: ['notification-rule', id],
    enabled: id !== null,
    retry: false,
    queryFn: ({ signal }) => http.get<EntityRow>(entityUrl(self, id ?? ''), { signal }),
  });
  const row = stored.data;
  const [details, setDetails] = useState<Record<string, FormValue>>({ ntf_cd: '', ntf_nm: '', ntf_mapp_day: null, ntf_mapp_odr: null, ntf_dscr: '' });
  const [active, setActive] = useState(true);
  const [draft, setDraft] = useState<RuleDraft>(emptyDraft());
  const [saving, setSaving] = useState(false);
  const [preview, setPreview] = useState<{ rows: Record<string, unknown>[]; count: number } | null>(null);
  useEffect(() => {
    if (!row) return;
    setDetails(Object.fromEntries(DETAIL_FIELDS.map((n) => [n, (row[n] ?? null) as FormValue])));
    setActive(row.ntf_mapp_sts !== false);
    setDraft(draftOf(row));
  }, [row]);

  const base: AnyEntity | undefined = draft.entity ? findEntity(draft.entity) : undefined;
  const fieldsQuery = useQuery({
    queryKey: ['notification-query-fields', draft.entity],
    enabled: !!draft.entity,
    staleTime: Infinity,
    queryFn: ({ signal }) => http.get<{ fields: QueryField[] }>('/api/notification/queryFields/', { signal, query: { entity: draft.entity } }),
  });
  const fields = fieldsQuery.data?.fields ?? [];
  const fieldData = fields.map((f) => ({ value: f.name, label: base ? fieldLabel(t, base, f.name) : f.label }));
  const dateData = fields.filter((f) => f.kind === 'date' || f.kind === 'datetime').map((f) => ({ value: f.name, label: base ? fieldLabel(t, base, f.name) : f.label }));

  const entityData = useMemo(() => {
    const seen = new Set<string>();
    const out: { value: string; label: string }[] = [];
    for (const key of my.allowed) {
      const [module, page] = key.split('/');
      const def = findEntity(findPage(module, page)?.entity ?? '');
      if (def && !seen.has(def.name)) {
        seen.add(def.name);
        const first = pagesOfEntity(def.name)[0];
        out.push({ value: def.name, label: first ? pageLabel(t, first) : def.label });
      }
    }
    if (draft.entity && !seen.has(draft.entity)) out.push({ value: draft.entity, label: draft.entity });
    return out.sort((a, b) => a.label.localeCompare(b.label));
  }, [my.allowed, draft.entity, t]);

  const back = () => navigate(`${modePath(MODULE, PAGE, 'table')}${lastListSearch(self.name)}`);
  const opsLabel = (op: RuleOp): string => t(`notification.op_${op}`, { defaultValue: op });
  const setCond = (i: number, patch: Partial<DraftCondition>) => setDraft((d) => ({ ...d, where: d.where.map((w, j) => (j === i ? { ...w, ...patch } : w)) }));

  const body = () => ({
    ...Object.fromEntries(DETAIL_FIELDS.map((n) => [n, typeof details[n] === 'string' ? (details[n] as string).trim() || null : details[n]])),
    ntf_mapp_sts: active,
    ...ruleParts(draft, base),
  });

  const save = async () => {
    for (const n of ['ntf_cd', 'ntf_nm'] as const) {
      if (String(details[n] ?? '').trim() === '') {
        toast.warning(localRequiredMessage({ ...self.fields[n], label: fieldLabel(t, self, n) }));
        document.getElementById(n)?.focus();
        return;
      }
    }
    if (!draft.entity) {
      toast.warning(t('notification.pick_entity', { defaultValue: 'Choose what the notification reads first.' }));
      return;
    }
    setSaving(true);
    try {
      if (id === null) {
        const made = await http.post<EntityRow>(entityUrl(self), body());
        await queryClient.invalidateQueries({ queryKey: listQueryKey(self.name) });
        // Saved: stay on it, so the recipients can be chosen.
        navigate(modePath(MODULE, PAGE, 'update', String(made.ntf_id)));
      } else {
        await http.put(entityUrl(self, id), { ...body(), row_ver: row?.row_ver });
        await queryClient.invalidateQueries({ queryKey: listQueryKey(self.name) });
        await queryClient.invalidateQueries({ queryKey: ['notification-rule'] });
        back();
      }
    } catch (e) {
      // The client has toasted the server's sentence (it names the part); the form keeps what was chosen.
      if (!(e instanceof HttpError)) throw e;
    } finally {
      setSaving(false);
    }
  };

  const runPreview = async () => {
    if (!draft.entity) return;
    try {
      const answer = await http.get<{ rows: Record<string, unknown>[]; count: number }>('/api/notification/fetchQuery/', {
        query: { ntf: JSON.stringify(ruleParts(draft, base)) },
      });
      setPreview(answer);
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      setPreview(null);
    }
  };

  if (id !== null && stored.isPending) return <Skeleton height={320} radius="md" />;
  if (id !== null && stored.isError) {
    return (
      <Alert color="red" title={t('notification.not_found', { defaultValue: 'This notification was not found.' })}>
        <Button variant="light" onClick={back}>
          {t('notification.back', { defaultValue: 'Back to notifications' })}
        </Button>
      </Alert>
    );
  }

  // A link shows its joined name (cls_grp_nm) under the link's own label, not its code.
  const linkAs = new Map(base ? Object.entries(base.fields).flatMap(([n, f]) => (f.kind === 'link' ? [[f.as, n] as const] : [])) : []);
  const previewCols = preview?.rows[0]
    ? Object.keys(preview.rows[0])
        .filter((k) => k !== 'row_ver' && !(base && Object.hasOwn(base.fields, k) && base.fields[k].kind === 'link' && linkAs.has((base.fields[k] as LinkField).as)))
        .slice(0, 8)
    : [];
  const colLabel = (c: string): string => {
    if (!base) return c;
    if (Object.hasOwn(base.fields, c)) return fieldLabel(t, base, c);
    const link = linkAs.get(c);
    if (link) return fieldLabel(t, base, link);
    return c === 'n' ? t('notification.count', { defaultValue: 'Count' }) : c;
  };

  return (
    <Stack gap="sm" maw={1000} data-testid="notification-rule-editor">
      <Title order={4}>{id === null ? t('notification.title_create', { defaultValue: 'New Notification' }) : t('notification.title_update', { defaultValue: 'Edit Notification' })}</Title>

      <Paper withBorder p="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {DETAIL_FIELDS.map((n) => (
            <FieldInput key={n} name={n} field={self.fields[n]} label={fieldLabel(t, self, n)} value={details[n] ?? null} onChange={(v) => setDetails((d) => ({ ...d, [n]: v }))} />
          ))}
          <Switch mt="lg" label={fieldLabel(t, self, 'ntf_mapp_sts')} checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
        </SimpleGrid>
      </Paper>

      <Paper withBorder p="sm">
        <Stack gap="xs">
          <Select
            id="ntf_entity"
            label={t('notification.entity', { defaultValue: 'Reads' })}
            description={t('notification.entity_hint', { defaultValue: 'Only the pages you may open are listed.' })}
            withAsterisk
            searchable
            data={entityData}
            value={draft.entity || null}
            onChange={(v) => {
              setPreview(null);
              setDraft(v ? { ...emptyDraft(), entity: v } : emptyDraft());
            }}
            comboboxProps={{ withinPortal: true }}
          />
          {base && (
            <MultiSelect
              label={t('notification.columns', { defaultValue: 'Columns' })}
              data={fieldData}
              value={draft.columns}
              onChange={(v) => setDraft((d) => ({ ...d, columns: v }))}
              searchable
              clearable
              comboboxProps={{ withinPortal: true }}
            />
          )}
        </Stack>
      </Paper>

      {base && (
        <>
          <Paper withBorder p="sm">
            <Stack gap="xs">
              <Text fw={600} size="sm">
                {t('notification.conditions', { defaultValue: 'Conditions' })}
              </Text>
              {draft.where.length === 0 && (
                <Text size="sm" c="dimmed">
                  {t('notification.no_conditions', { defaultValue: 'No conditions: every row the page shows.' })}
                </Text>
              )}
              {draft.where.map((w, i) => {
                const qf = fields.find((f) => f.name === w.field);
                const f = w.field && Object.hasOwn(base.fields, w.field) ? base.fields[w.field] : undefined;
                return (
                  <Group key={i} align="flex-end" gap="xs" wrap="wrap" data-testid="rule-condition">
                    <Select
                      w={{ base: '100%', sm: 220 }}
                      label={t('notification.field', { defaultValue: 'Field' })}
                      data={fieldData}
                      value={w.field || null}
                      onChange={(v) => setCond(i, { field: v ?? '', op: 'eq', value: '' })}
                      searchable
                      comboboxProps={{ withinPortal: true }}
                    />
                    <Select
                      w={{ base: '100%', sm: 170 }}
                      label={t('notification.operator', { defaultValue: 'Operator' })}
                      data={(qf?.ops ?? ['eq']).map((op) => ({ value: op, label: opsLabel(op) }))}
                      value={w.op}
                      onChange={(v) => setCond(i, { op: (v ?? 'eq') as RuleOp })}
                      allowDeselect={false}
                      comboboxProps={{ withinPortal: true }}
                    />
                    <div style={{ flex: 1, minWidth: 200 }}>
                      {f && !takesNoValue(w.op) ? (
                        takesList(w.op) || w.op === 'contains' || w.op === 'starts_with' || f.kind === 'link' || f.kind === 'code' ? (
                          <TextInput
                            label={takesList(w.op) ? t('notification.values', { defaultValue: 'Values (comma separated)' }) : t('notification.value', { defaultValue: 'Value' })}
                            value={w.value}
                            onChange={(e) => setCond(i, { value: e.currentTarget.value })}
                          />
                        ) : (
                          <FieldInput
                            name={`cond_${i}`}
                            field={{ ...f, required: false }}
                            label={t('notification.value', { defaultValue: 'Value' })}
                            value={f.kind === 'bool' ? w.value === 'true' : w.value === '' ? null : w.value}
                            onChange={(v) => setCond(i, { value: v === null ? '' : String(v) })}
                          />
                        )
                      ) : null}
                    </div>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      mb={4}
                      aria-label={t('notification.remove', { defaultValue: 'Remove' })}
                      onClick={() => setDraft((d) => ({ ...d, where: d.where.filter((_, j) => j !== i) }))}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                );
              })}
              <Group>
                <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => setDraft((d) => ({ ...d, where: [...d.where, { field: '', op: 'eq', value: '' }] }))}>
                  {t('notification.add_condition', { defaultValue: 'Add condition' })}
                </Button>
              </Group>
            </Stack>
          </Paper>

          <Paper withBorder p="sm">
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
              <Select
                label={t('notification.date_field', { defaultValue: 'Date window on' })}
                description={t('notification.date_hint', { defaultValue: 'Days from the day it runs: 0 to 3 is today to three days ahead.' })}
                data={dateData}
                value={draft.dateField}
                onChange={(v) => setDraft((d) => ({ ...d, dateField: v }))}
                clearable
                comboboxProps={{ withinPortal: true }}
              />
              <NumberInput label={t('notification.date_from', { defaultValue: 'From day' })} disabled={!draft.dateField} allowDecimal={false} min={-3660} max={3660} value={draft.from} onChange={(v) => setDraft((d) => ({ ...d, from: Number(v) || 0 }))} />
              <NumberInput label={t('notification.date_to', { defaultValue: 'To day' })} disabled={!draft.dateField} allowDecimal={false} min={-3660} max={3660} value={draft.to} onChange={(v) => setDraft((d) => ({ ...d, to: Number(v) || 0 }))} />
              <MultiSelect
                label={t('notification.group', { defaultValue: 'Count by' })}
                data={fieldData}
                value={draft.group}
                onChange={(v) => setDraft((d) => ({ ...d, group: v.slice(0, 5), order: d.order && v.includes(d.order.field) ? d.order : null }))}
                clearable
                comboboxProps={{ withinPortal: true }}
              />
              <Group gap="xs" align="flex-end" wrap="nowrap">
                <Select
                  style={{ flex: 1 }}
                  label={t('notification.order', { defaultValue: 'Order by' })}
                  data={draft.group.length ? fieldData.filter((x) => draft.group.includes(x.value)) : fieldData}
                  value={draft.order?.field ?? null}
                  onChange={(v) => setDraft((d) => ({ ...d, order: v ? { field: v, dir: d.order?.dir ?? 'asc' } : null }))}
                  clearable
                  comboboxProps={{ withinPortal: true }}
                />
                <SegmentedControl
                  size="xs"
                  disabled={!draft.order}
                  value={draft.order?.dir ?? 'asc'}
                  onChange={(v) => setDraft((d) => ({ ...d, order: d.order ? { ...d.order, dir: v === 'desc' ? 'desc' : 'asc' } : null }))}
                  data={[
                    { value: 'asc', label: '↑' },
                    { value: 'desc', label: '↓' },
                  ]}
                />
              </Group>
              <NumberInput label={t('notification.limit', { defaultValue: 'At most (rows)' })} allowDecimal={false} min={1} max={500} value={draft.limit} onChange={(v) => setDraft((d) => ({ ...d, limit: Number(v) || 50 }))} />
            </SimpleGrid>
          </Paper>

          <Paper withBorder p="sm">
            <Group justify="space-between">
              <Button size="xs" variant="light" leftSection={<IconEye size={14} />} onClick={() => void runPreview()} data-testid="rule-preview">
                {t('notification.preview', { defaultValue: 'Preview' })}
              </Button>
              {preview && <Badge size="lg" tt="none">{t('notification.records', { defaultValue: 'Records: {{n}}', n: preview.count })}</Badge>}
            </Group>
            {preview && preview.rows.length > 0 && (
              <ScrollArea mt="xs">
                <Table striped withTableBorder fz="xs">
                  <Table.Thead>
                    <Table.Tr>
                      {previewCols.map((c) => (
                        <Table.Th key={c}>{colLabel(c)}</Table.Th>
                      ))}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {preview.rows.map((r, i) => (
                      <Table.Tr key={i}>
                        {previewCols.map((c) => (
                          <Table.Td key={c}>{r[c] === null || r[c] === undefined ? '' : String(r[c])}</Table.Td>
                        ))}
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </ScrollArea>
            )}
          </Paper>
        </>
      )}

      {id !== null && <Recipients ntfId={Number(id)} />}

      <Group gap="xs">
        <Button leftSection={<IconDeviceFloppy size={16} />} loading={saving} onClick={() => void save()} data-testid="rule-save">
          {t('btn.save', { defaultValue: 'Save' })}
        </Button>
        <Button variant="default" leftSection={<IconX size={16} />} onClick={back}>
          {t('btn.cancel', { defaultValue: 'Cancel' })}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * Who gets the rule on which day, and whether by e-mail too (POST /api/notification/mapping/ saves one pair
 * at a time). E-mail may be switched on while the server cannot send it: the server's sentence says so.
 */
function Recipients({ ntfId }: { ntfId: number }): JSX.Element {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const key = ['notification-mapping', ntfId];
  const list = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => http.get<{ rows: Mapping[] }>('/api/notification/mapping/', { signal, query: { ntf_id: ntfId } }),
  });
  const [usr, setUsr] = useState<string | null>(null);
  const [day, setDay] = useState<string>('Every day');
  const [byMail, setByMail] = useState(false);
  const mailStatus = useQuery({
    queryKey: ['mail-status'],
    staleTime: 5 * 60_000,
    queryFn: ({ signal }) => http.get<MailStatus>('/api/message/mail-status', { signal, silent: true }),
  });
  const mailOff = mailStatus.data?.enabled === false;
  const dayData = NOTIFICATION_DAYS.map((d) => ({ value: d, label: t(`notification.day_${d.replace(/\s+/g, '_').toLowerCase()}`, { defaultValue: d }) }));
  const saveOne = async (m: { ntf_mapp_usr_cd: number; ntf_mapp_day: string; ntf_mapp_sts: boolean; ntf_mapp_odr?: number | null; ntf_mapp_eml: boolean }) => {
    const { ntf_mapp_usr_cd, ntf_mapp_day, ntf_mapp_sts, ntf_mapp_odr, ntf_mapp_eml } = m;
    try {
      await http.post('/api/notification/mapping/', [{ ntf_id: ntfId, ntf_mapp_usr_cd, ntf_mapp_day, ntf_mapp_sts, ntf_mapp_odr, ntf_mapp_eml }]);
      await queryClient.invalidateQueries({ queryKey: key });
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
    }
  };
  return (
    <Paper withBorder p="sm" data-testid="rule-recipients">
      <Stack gap="xs">
        <Text fw={600} size="sm">
          {t('notification.recipients', { defaultValue: 'Who gets it' })}
        </Text>
        {(list.data?.rows ?? []).map((m) => (
          <Group key={m.ntf_mapp_cd} gap="xs" wrap="wrap" data-testid="rule-recipient">
            <Text size="sm" style={{ flex: 1, minWidth: 160 }}>
              {m.usr_full_nm}
            </Text>
            <Select w={160} size="xs" data={dayData} value={m.ntf_mapp_day} allowDeselect={false} onChange={(v) => v && void saveOne({ ...m, ntf_mapp_day: v })} comboboxProps={{ withinPortal: true }} />
            <Switch size="sm" label={t('notification.active', { defaultValue: 'Active' })} checked={m.ntf_mapp_sts} onChange={(e) => void saveOne({ ...m, ntf_mapp_sts: e.currentTarget.checked })} />
            <Switch
              size="sm"
              label={t('notification.by_email', { defaultValue: 'E-mail' })}
              checked={m.ntf_mapp_eml}
              onChange={(e) => void saveOne({ ...m, ntf_mapp_eml: e.currentTarget.checked })}
              data-testid="rule-recipient-email"
            />
            {m.ntf_mapp_eml && !m.usr_has_eml && (
              <Text size="xs" c="orange.8" w="100%">
                {t('notification.no_email_address', { defaultValue: 'No e-mail address on record: add one to the employee to receive it.' })}
              </Text>
            )}
          </Group>
        ))}
        {mailOff && (
          <Text size="xs" c="dimmed" data-testid="rule-mail-disabled">
            {t('notification.mail_disabled', { defaultValue: mailStatus.data?.message ?? '' })}
          </Text>
        )}
        <Group gap="xs" align="flex-end" wrap="wrap">
          <div style={{ flex: 1, minWidth: 220 }}>
            <LinkSelect name="ntf_mapp_usr_cd" field={notificationMapping.fields.ntf_mapp_usr_cd as LinkField} label={t('notification.employee', { defaultValue: 'Employee' })} value={usr} onChange={setUsr} />
          </div>
          <Select w={170} label={t('notification.day', { defaultValue: 'Day' })} data={dayData} value={day} allowDeselect={false} onChange={(v) => setDay(v ?? 'Every day')} comboboxProps={{ withinPortal: true }} />
          <Switch mb={8} label={t('notification.by_email', { defaultValue: 'E-mail' })} checked={byMail} onChange={(e) => setByMail(e.currentTarget.checked)} data-testid="rule-new-recipient-email" />
          <Button
            size="sm"
            variant="light"
            leftSection={<IconPlus size={14} />}
            disabled={!usr}
            onClick={() => {
              if (!usr) return;
              void saveOne({ ntf_mapp_usr_cd: Number(usr), ntf_mapp_day: day, ntf_mapp_sts: true, ntf_mapp_eml: byMail }).then(() => {
                setUsr(null);
                setByMail(false);
              });
            }}
            data-testid="rule-add-recipient"
          >
            {t('notification.add_recipient', { defaultValue: 'Add' })}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
