import type { AnyEntity, LinkField, SelectField } from '@campus/entities/define';
import { pagesOfEntity } from '@campus/entities/pages';
import { entity as entityNamed, findEntity } from '@campus/entities/registry';
import { ActionIcon, Alert, Button, Group, MultiSelect, Paper, SegmentedControl, Select, SimpleGrid, Skeleton, Stack, Text, Textarea, TextInput, Title, Tooltip } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconDeviceFloppy, IconPlayerPlay, IconPlus, IconTrash, IconX } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { usePagePermission } from '../../app/page-permission-context';
import { entityUrl, type EntityRow } from '../../engine/entity-api';
import { fieldLabel, pageLabel } from '../../engine/entity-labels';
import { modePath, parseMode } from '../../engine/entity-mode';
import { FieldInput } from '../../engine/field-input';
import { LinkSelect } from '../../engine/link-select';
import { lastListSearch, listQueryKey } from '../../engine/use-entity-list';
import { http, HttpError } from '../../lib/http-client';
import { toast } from '../../lib/toast';
import { localRequiredMessage } from '../../lib/validation';
import {
  columnChoices,
  definitionBody,
  definitionOf,
  emptyDefinition,
  filterChoices,
  filterFormValue,
  filterText,
  moveColumn,
  reportableFor,
  retarget,
  type ReportDefinition,
} from './report-definition';
import { useMyPages } from './use-my-pages';

const MODULE = 'reports';
const PAGE = 'custom_report';

interface Details {
  name: string;
  group: string | null;
  description: string;
}

/**
 * Create and update screen of a custom report: what it is on (only entities of pages the user may open),
 * its columns in order, equality filters with the field's own input, sort and search. Saved through the
 * entity's generic POST/PUT; the server checks the definition against the chosen entity's declaration.
 */
export function CustomReportEditorPage(): JSX.Element {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const params = useParams();
  const { can } = usePagePermission();
  const mode = parseMode(params['*']);
  const id = mode && mode.kind === 'update' ? mode.id : null;
  const self = entityNamed('custom_report');
  const my = useMyPages();

  const stored = useQuery({
    queryKey: ['custom-report', id],
    enabled: id !== null,
    retry: false,
    queryFn: ({ signal }) => http.get<EntityRow>(entityUrl(self, id ?? ''), { signal }),
  });

  const [details, setDetails] = useState<Details>({ name: '', group: null, description: '' });
  const [def, setDef] = useState<ReportDefinition>(emptyDefinition());
  const [saving, setSaving] = useState(false);
  const row = stored.data;
  useEffect(() => {
    if (!row) return;
    setDetails({ name: String(row.cst_rpt_nm ?? ''), group: row.rpt_cd == null ? null : String(row.rpt_cd), description: String(row.cst_rpt_dscr ?? '') });
    setDef(definitionOf(row));
  }, [row]);

  const entityField = self.fields.cst_rpt_entity as SelectField;
  const reportable = useMemo(() => reportableFor(entityField.options, my.allowed), [entityField.options, my.allowed]);
  const base: AnyEntity | undefined = def.entity ? findEntity(def.entity) : undefined;
  const columns = useMemo(() => (base ? columnChoices(t, base) : []), [t, base]);
  const filterFields = useMemo(() => (base ? filterChoices(t, base) : []), [t, base]);
  const labelOf = (name: string): string => columns.find((c) => c.value === name)?.label ?? name;

  const entityData = reportable.map((e) => {
    const pg = pagesOfEntity(e.name)[0];
    return { value: e.name, label: pg ? pageLabel(t, pg) : e.label };
  });
  // A stored report on a page the user cannot open still shows what it is on.
  if (def.entity && !entityData.some((d) => d.value === def.entity)) {
    const pg = pagesOfEntity(def.entity)[0];
    entityData.push({ value: def.entity, label: pg ? pageLabel(t, pg) : def.entity });
  }

  const back = () => navigate(`${modePath(MODULE, PAGE, 'table')}${lastListSearch(self.name)}`);

  const save = async () => {
    const nameField = self.fields.cst_rpt_nm;
    if (details.name.trim() === '') {
      toast.warning(localRequiredMessage({ ...nameField, label: fieldLabel(t, self, 'cst_rpt_nm') }));
      document.getElementById('cst_rpt_nm')?.focus();
      return;
    }
    if (!def.entity) {
      toast.warning(localRequiredMessage({ ...entityField, label: fieldLabel(t, self, 'cst_rpt_entity') }));
      return;
    }
    const body = {
      cst_rpt_nm: details.name.trim(),
      rpt_cd: details.group === null ? null : Number(details.group),
      cst_rpt_dscr: details.description.trim() || null,
      ...definitionBody(def),
    };
    setSaving(true);
    try {
      if (id === null) await http.post(entityUrl(self), body);
      else await http.put(entityUrl(self, id), { ...body, row_ver: row?.row_ver });
      await queryClient.invalidateQueries({ queryKey: listQueryKey(self.name) });
      await queryClient.invalidateQueries({ queryKey: ['custom-report'] });
      back();
    } catch (e) {
      // The client has toasted the server's sentence (it names the field); the form keeps what was typed.
      if (!(e instanceof HttpError)) throw e;
    } finally {
      setSaving(false);
    }
  };

  if (id !== null && stored.isPending) return <Skeleton height={320} radius="md" />;
  if (id !== null && stored.isError) {
    return (
      <Alert color="red" title={t('custom_report.not_found', { defaultValue: 'This report was not found.' })}>
        <Button variant="light" onClick={back}>
          {t('custom_report.back', { defaultValue: 'Back to reports' })}
        </Button>
      </Alert>
    );
  }

  const setFilter = (i: number, patch: Partial<{ field: string; value: string }>) =>
    setDef((d) => ({ ...d, filters: d.filters.map((f, j) => (j === i ? { ...f, ...patch } : f)) }));

  return (
    <Stack gap="sm" maw={960} data-testid="custom-report-editor">
      <Group justify="space-between" wrap="wrap">
        <Title order={4}>
          {id === null ? t('custom_report.title_create', { defaultValue: 'New Custom Report' }) : t('custom_report.title_update', { defaultValue: 'Edit Custom Report' })}
        </Title>
        {id !== null && can('view') && (
          <Button size="xs" variant="light" leftSection={<IconPlayerPlay size={14} />} onClick={() => navigate(modePath(MODULE, PAGE, 'view', id))}>
            {t('custom_report.run', { defaultValue: 'Run' })}
          </Button>
        )}
      </Group>

      <Paper withBorder p="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            id="cst_rpt_nm"
            label={fieldLabel(t, self, 'cst_rpt_nm')}
            withAsterisk
            maxLength={100}
            value={details.name}
            onChange={(e) => setDetails({ ...details, name: e.currentTarget.value })}
          />
          <LinkSelect
            name="rpt_cd"
            field={self.fields.rpt_cd as LinkField}
            label={fieldLabel(t, self, 'rpt_cd')}
            value={details.group}
            knownLabel={row && details.group === String(row.rpt_cd ?? '') && row.rpt_nm ? String(row.rpt_nm) : undefined}
            onChange={(v) => setDetails({ ...details, group: v })}
          />
          <Select
            id="cst_rpt_entity"
            label={fieldLabel(t, self, 'cst_rpt_entity')}
            description={t('custom_report.entity_hint', { defaultValue: 'Only the pages you may open are listed.' })}
            withAsterisk
            searchable
            data={entityData}
            value={def.entity || null}
            onChange={(v) => {
              const e = v ? findEntity(v) : undefined;
              setDef((d) => (e ? retarget(d, e) : emptyDefinition()));
            }}
            nothingFoundMessage={t('custom_report.no_entities', { defaultValue: 'You may not open any page a report can be built on.' })}
            comboboxProps={{ withinPortal: true }}
          />
          <Textarea
            label={fieldLabel(t, self, 'cst_rpt_dscr')}
            autosize
            minRows={1}
            maxRows={4}
            maxLength={500}
            value={details.description}
            onChange={(e) => setDetails({ ...details, description: e.currentTarget.value })}
          />
        </SimpleGrid>
      </Paper>

      {!base ? (
        <Text c="dimmed" size="sm">
          {t('custom_report.pick_entity_first', { defaultValue: 'Choose what the report is on first.' })}
        </Text>
      ) : (
        <>
          <Paper withBorder p="sm">
            <Stack gap="xs">
              <MultiSelect
                label={t('custom_report.columns', { defaultValue: 'Columns' })}
                description={t('custom_report.columns_hint', { defaultValue: "Pick the columns in the order they should appear; none shows the page's usual columns." })}
                data={columns}
                value={def.columns}
                onChange={(v) => setDef((d) => ({ ...d, columns: v }))}
                searchable
                clearable
                comboboxProps={{ withinPortal: true }}
                data-testid="report-columns"
              />
              {def.columns.map((c, i) => (
                <Group key={c} gap={6} wrap="nowrap" data-testid="report-column">
                  <Text size="sm" w={28} c="dimmed">
                    {i + 1}.
                  </Text>
                  <Text size="sm" style={{ flex: 1 }}>
                    {labelOf(c)}
                  </Text>
                  <Tooltip label={t('custom_report.move_up', { defaultValue: 'Move up' })}>
                    <ActionIcon variant="subtle" disabled={i === 0} aria-label={t('custom_report.move_up', { defaultValue: 'Move up' })} onClick={() => setDef((d) => ({ ...d, columns: moveColumn(d.columns, i, -1) }))}>
                      <IconArrowUp size={14} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label={t('custom_report.move_down', { defaultValue: 'Move down' })}>
                    <ActionIcon
                      variant="subtle"
                      disabled={i === def.columns.length - 1}
                      aria-label={t('custom_report.move_down', { defaultValue: 'Move down' })}
                      onClick={() => setDef((d) => ({ ...d, columns: moveColumn(d.columns, i, 1) }))}
                    >
                      <IconArrowDown size={14} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              ))}
            </Stack>
          </Paper>

          <Paper withBorder p="sm">
            <Stack gap="xs">
              <Text fw={600} size="sm">
                {t('custom_report.filters', { defaultValue: 'Filters' })}
              </Text>
              {def.filters.length === 0 && (
                <Text size="sm" c="dimmed">
                  {t('custom_report.no_filters', { defaultValue: 'No filters: every row the page shows.' })}
                </Text>
              )}
              {def.filters.map((flt, i) => {
                const f = flt.field && Object.hasOwn(base.fields, flt.field) ? base.fields[flt.field] : undefined;
                // Each field once: the list API takes one f_<field> per field.
                const taken = new Set(def.filters.filter((_, j) => j !== i).map((x) => x.field));
                return (
                  <Group key={i} align="flex-end" gap="xs" wrap="wrap" data-testid="report-filter">
                    <Select
                      w={{ base: '100%', sm: 240 }}
                      label={t('custom_report.filter_field', { defaultValue: 'Field' })}
                      data={filterFields.filter((c) => !taken.has(c.value))}
                      value={flt.field || null}
                      onChange={(v) => setFilter(i, { field: v ?? '', value: '' })}
                      searchable
                      comboboxProps={{ withinPortal: true }}
                    />
                    <div style={{ flex: 1, minWidth: 200 }}>
                      {f ? (
                        <FieldInput
                          name={`filter_${i}`}
                          field={f.kind === 'code' ? { ...f, kind: 'text', max: 12 } : f}
                          label={t('custom_report.filter_value', { defaultValue: 'Value' })}
                          value={filterFormValue(f, flt.value)}
                          onChange={(v) => setFilter(i, { value: filterText(v) })}
                        />
                      ) : null}
                    </div>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      mb={4}
                      aria-label={t('custom_report.remove', { defaultValue: 'Remove' })}
                      onClick={() => setDef((d) => ({ ...d, filters: d.filters.filter((_, j) => j !== i) }))}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                );
              })}
              <Group>
                <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => setDef((d) => ({ ...d, filters: [...d.filters, { field: '', value: '' }] }))}>
                  {t('custom_report.add_filter', { defaultValue: 'Add filter' })}
                </Button>
              </Group>
            </Stack>
          </Paper>

          <Paper withBorder p="sm">
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
              <Select
                label={fieldLabel(t, self, 'cst_rpt_sort')}
                data={columns}
                value={def.sort}
                onChange={(v) => setDef((d) => ({ ...d, sort: v }))}
                clearable
                searchable
                comboboxProps={{ withinPortal: true }}
              />
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  {fieldLabel(t, self, 'cst_rpt_dir')}
                </Text>
                <SegmentedControl
                  disabled={!def.sort}
                  value={def.dir}
                  onChange={(v) => setDef((d) => ({ ...d, dir: v === 'desc' ? 'desc' : 'asc' }))}
                  data={[
                    { value: 'asc', label: t('custom_report.ascending', { defaultValue: 'Ascending' }) },
                    { value: 'desc', label: t('custom_report.descending', { defaultValue: 'Descending' }) },
                  ]}
                />
              </Stack>
              <TextInput
                label={fieldLabel(t, self, 'cst_rpt_q')}
                maxLength={100}
                value={def.search}
                onChange={(e) => {
                  const v = e.currentTarget.value;
                  setDef((d) => ({ ...d, search: v }));
                }}
              />
            </SimpleGrid>
          </Paper>
        </>
      )}

      <Group gap="xs">
        <Button leftSection={<IconDeviceFloppy size={16} />} loading={saving} onClick={() => void save()} data-testid="report-save">
          {t('btn.save', { defaultValue: 'Save' })}
        </Button>
        <Button variant="default" leftSection={<IconX size={16} />} onClick={back}>
          {t('btn.cancel', { defaultValue: 'Cancel' })}
        </Button>
      </Group>
    </Stack>
  );
}
