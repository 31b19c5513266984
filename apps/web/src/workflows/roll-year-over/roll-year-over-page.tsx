import { Alert, Anchor, Badge, Button, Checkbox, Group, List, Paper, Select, SimpleGrid, Skeleton, Stack, Stepper, Table, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle, IconArrowLeft, IconArrowRight, IconCopy, IconEye } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { MOBILE_QUERY } from '../../engine/responsive';
import { formatMoney } from '../../lib/format';
import { http, HttpError } from '../../lib/http-client';
import { toast } from '../../lib/toast';
import { WorkflowHeader } from '../workflow-screen/workflow-header';
import {
  orderedSelection,
  PCT_TYPING,
  pctValue,
  toggleTable,
  type CopyableTableCount,
  type RolloverChoices,
  type RolloverPreview,
  type RolloverResult,
  type TablePreview,
} from './rollover-model';

const TABLE_PATH = '/sms/institute/migration/table';
const NEW_YEAR_PATH = '/sms/institute/academic/create';

/** The Migration page's New: copy this year's masters (fee groups, fee mappings...) into the next, step by step. */
export function RollYearOverPage(): JSX.Element {
  const rest = useParams()['*'] ?? '';
  // Edit on a migration row has nothing to edit: a run is never changed, only rolled back.
  const [mode, id] = rest.split('/');
  if (mode === 'update' && id) return <Navigate to={`/sms/institute/migration/view/${id}`} replace />;
  return <RolloverStepper />;
}

function RolloverStepper(): JSX.Element {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const isMobile = useMediaQuery(MOBILE_QUERY, false, { getInitialValueInEffect: false });
  const [step, setStep] = useState(0);
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [pctTyped, setPctTyped] = useState('');
  const [preview, setPreview] = useState<RolloverPreview | null>(null);
  const [result, setResult] = useState<RolloverResult | null>(null);
  const [busy, setBusy] = useState(false);

  const choices = useQuery({
    queryKey: ['rollover-choices'],
    staleTime: 0,
    queryFn: ({ signal }) => http.get<RolloverChoices>('/api/migration/choices', { signal }),
  });
  useEffect(() => {
    if (!choices.data) return;
    setFrom((f) => f ?? (choices.data.frm_acdm_cd ? String(choices.data.frm_acdm_cd) : null));
    setTo((x) => x ?? (choices.data.to_acdm_cd ? String(choices.data.to_acdm_cd) : null));
  }, [choices.data]);
  const yearData = useMemo(() => (choices.data?.years ?? []).map((y) => ({ value: String(y.acdm_cd), label: y.label })), [choices.data]);
  const yearLabel = (v: string | null) => yearData.find((y) => y.value === v)?.label ?? '';

  const tables = useQuery({
    queryKey: ['rollover-tables', from, to],
    enabled: step >= 1 && !!from && !!to,
    staleTime: 0,
    queryFn: ({ signal }) => http.get<CopyableTableCount[]>('/api/migration/tables', { signal, query: { frm_acdm_cd: from ?? '', to_acdm_cd: to ?? '' } }),
  });
  const tableList = useMemo(() => tables.data ?? [], [tables.data]);
  const feeChosen = tableList.some((x) => x.fee_amounts && selected.has(x.table));
  const pct = pctValue(pctTyped);
  const tableLabel = (name: string, fallback: string) => t(`entity.${name}.label`, { defaultValue: fallback });

  const body = () => ({
    frm_acdm_cd: Number(from),
    to_acdm_cd: Number(to),
    tables: orderedSelection(selected, tableList),
    ...(feeChosen && pct !== null && pct !== undefined ? { fee_pct: pct } : {}),
  });

  async function showPreview() {
    if (selected.size === 0) return toast.danger(t('rollover.pick_tables', { defaultValue: 'Please select the tables to copy.' }));
    if (feeChosen && pct === undefined) return toast.danger(t('rollover.bad_pct', { defaultValue: "'Fee Change %' must be a number from -100 to 1000 with at most 2 decimals." }));
    setBusy(true);
    try {
      setPreview(await http.post<RolloverPreview>('/api/migration/preview', body(), { silent: true }));
      setStep(2);
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      if (!e.aborted) toast.danger(e.message);
    } finally {
      setBusy(false);
    }
  }

  async function run() {
    setBusy(true);
    try {
      const res = await http.post<RolloverResult>('/api/migration/', body(), { silent: true });
      setResult(res);
      setStep(3);
      if (res.mgrtn_run_cd === null) toast.warning(res.message);
      else toast.success(res.message);
      await queryClient.invalidateQueries();
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      if (!e.aborted) toast.danger(e.message);
    } finally {
      setBusy(false);
    }
  }

  const sameYear = !!from && from === to;
  const nextYearMissing = choices.isSuccess && !choices.data.to_acdm_cd && choices.data.next_strt_yr !== null;

  return (
    <Stack gap="md" maw={960}>
      <WorkflowHeader
        title={t('rollover.title', { defaultValue: 'Copy a year over to the next' })}
        page={t('page.institute.migration', { defaultValue: 'Migration' })}
        backTo={TABLE_PATH}
      />
      <Stepper
        active={step}
        onStepClick={(s) => s < step && step < 3 && setStep(s)}
        allowNextStepsSelect={false}
        size="sm"
        orientation={isMobile ? 'vertical' : 'horizontal'}
        data-testid="rollover-stepper"
      >
        <Stepper.Step label={t('rollover.step_years', { defaultValue: 'Years' })} description={isMobile ? undefined : t('rollover.step_years_hint', { defaultValue: 'From and to' })}>
          <Paper withBorder radius="md" p="md">
            {choices.isPending ? (
              <Skeleton h={60} />
            ) : (
              <Stack gap="sm">
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                  <Select
                    label={t('field.migration.frm_acdm_cd', { defaultValue: 'From Year' })}
                    data={yearData}
                    value={from}
                    onChange={setFrom}
                    required
                    comboboxProps={{ withinPortal: true }}
                    data-testid="rollover-from"
                  />
                  <Select
                    label={t('field.migration.to_acdm_cd', { defaultValue: 'To Year' })}
                    data={yearData}
                    value={to}
                    onChange={setTo}
                    required
                    error={sameYear ? t('rollover.same_year', { defaultValue: 'Choose two different years to copy from and to.' }) : undefined}
                    comboboxProps={{ withinPortal: true }}
                    data-testid="rollover-to"
                  />
                </SimpleGrid>
                {nextYearMissing && (
                  <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={16} />} data-testid="rollover-no-next-year">
                    <Text size="sm">
                      {t('rollover.no_next_year', { defaultValue: 'The academic year {{year}} does not exist yet.', year: `${choices.data.next_strt_yr}-${String(((choices.data.next_strt_yr ?? 0) + 1) % 100).padStart(2, '0')}` })}{' '}
                      <Anchor component={Link} to={NEW_YEAR_PATH} size="sm">
                        {t('rollover.create_year', { defaultValue: 'Create it first' })}
                      </Anchor>
                    </Text>
                  </Alert>
                )}
              </Stack>
            )}
          </Paper>
          <Group justify="flex-end" mt="md">
            <Button rightSection={<IconArrowRight size={16} />} disabled={!from || !to || sameYear} onClick={() => setStep(1)} w={{ base: '100%', xs: 'auto' }}>
              {t('rollover.next', { defaultValue: 'Next' })}
            </Button>
          </Group>
        </Stepper.Step>

        <Stepper.Step label={t('rollover.step_tables', { defaultValue: 'Tables' })} description={isMobile ? undefined : t('rollover.step_tables_hint', { defaultValue: 'What to copy' })}>
          <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
            {tables.isPending ? (
              <Stack gap="xs">
                {Array.from({ length: 4 }, (_, i) => (
                  <Skeleton key={i} h={32} />
                ))}
              </Stack>
            ) : (
              <Stack gap={0}>
                {tableList.map((x) => (
                  <Group key={x.table} justify="space-between" wrap="nowrap" py={8} gap="xs" style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
                    <Checkbox
                      label={tableLabel(x.table, x.label)}
                      description={
                        x.needs.length
                          ? t('rollover.needs', { defaultValue: 'Needs {{what}} in the target year', what: x.needs.map((n) => tableLabel(n, tableList.find((y) => y.table === n)?.label ?? n)).join(', ') })
                          : undefined
                      }
                      checked={selected.has(x.table)}
                      disabled={x.rows === 0}
                      onChange={(e) => {
                        const on = e.currentTarget.checked;
                        setSelected((s) => toggleTable(s, x.table, on, tableList));
                      }}
                      data-testid={`rollover-table-${x.table}`}
                    />
                    <Stack gap={2} align="flex-end" style={{ flexShrink: 0 }}>
                      <Badge variant="light">{t('rollover.rows_in', { defaultValue: '{{n}} in {{year}}', n: x.rows, year: yearLabel(from) })}</Badge>
                      {x.in_target > 0 && (
                        <Badge variant="light" color="gray">
                          {t('rollover.rows_in', { defaultValue: '{{n}} in {{year}}', n: x.in_target, year: yearLabel(to) })}
                        </Badge>
                      )}
                    </Stack>
                  </Group>
                ))}
              </Stack>
            )}
            {feeChosen && (
              <TextInput
                mt="md"
                w={{ base: '100%', sm: 260 }}
                label={t('field.migration.mgrtn_pct', { defaultValue: 'Fee Change %' })}
                description={t('rollover.pct_hint', { defaultValue: '10 = 10% more, -5 = 5% less; rounded to whole rupees. Empty copies amounts as they are.' })}
                inputMode="decimal"
                value={pctTyped}
                onChange={(e) => {
                  const v = e.currentTarget.value;
                  if (PCT_TYPING.test(v)) setPctTyped(v);
                }}
                error={pct === undefined ? t('rollover.bad_pct', { defaultValue: "'Fee Change %' must be a number from -100 to 1000 with at most 2 decimals." }) : undefined}
                rightSection={<Text size="sm">%</Text>}
                data-testid="rollover-pct"
              />
            )}
          </Paper>
          <Group justify="space-between" mt="md">
            <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={() => setStep(0)}>
              {t('btn.back', { defaultValue: 'Back' })}
            </Button>
            <Button leftSection={<IconEye size={16} />} onClick={() => void showPreview()} loading={busy} disabled={selected.size === 0}>
              {t('rollover.preview', { defaultValue: 'Preview' })}
            </Button>
          </Group>
        </Stepper.Step>

        <Stepper.Step label={t('rollover.step_preview', { defaultValue: 'Preview' })} description={isMobile ? undefined : t('rollover.step_preview_hint', { defaultValue: 'Check before copying' })}>
          {preview && (
            <Stack gap="sm" data-testid="rollover-preview">
              <Text size="sm">
                {t('rollover.preview_summary', {
                  defaultValue: '{{copy}} row(s) will be copied from {{from}} to {{to}}; {{skip}} already there will be skipped.',
                  copy: preview.copy,
                  skip: preview.skip,
                  from: preview.frm_acdm,
                  to: preview.to_acdm,
                })}
              </Text>
              {preview.blocked && (
                <Alert color="red" variant="light" icon={<IconAlertTriangle size={16} />} data-testid="rollover-blocked">
                  {preview.blocked}
                </Alert>
              )}
              {preview.tables.map((x) => (
                <TableCard key={x.table} preview={x} label={tableLabel(x.table, x.label)} />
              ))}
              <Group justify="space-between" mt="xs">
                <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={() => setStep(1)}>
                  {t('btn.back', { defaultValue: 'Back' })}
                </Button>
                <Button leftSection={<IconCopy size={16} />} onClick={() => void run()} loading={busy} disabled={!!preview.blocked} data-testid="rollover-run">
                  {t('rollover.run', { defaultValue: 'Copy {{n}} row(s)', n: preview.copy })}
                </Button>
              </Group>
            </Stack>
          )}
        </Stepper.Step>

        <Stepper.Step label={t('rollover.step_run', { defaultValue: 'Run' })} description={isMobile ? undefined : t('rollover.step_run_hint', { defaultValue: 'Result' })}>
          {result && (
            <Stack gap="sm" data-testid="rollover-result">
              <Alert color={result.mgrtn_run_cd === null ? 'yellow' : 'green'} variant="light">
                {result.message}
              </Alert>
              <List size="sm">
                {result.tables.map((x) => (
                  <List.Item key={x.table}>
                    {t('rollover.result_line', { defaultValue: '{{table}}: {{copy}} copied, {{skip}} skipped', table: tableLabel(x.table, x.label), copy: x.copy, skip: x.skip })}
                  </List.Item>
                ))}
              </List>
              <Group justify="flex-end">
                <Button onClick={() => navigate(TABLE_PATH)} data-testid="rollover-done">
                  {t('rollover.to_list', { defaultValue: 'Back to the list' })}
                </Button>
              </Group>
            </Stack>
          )}
        </Stepper.Step>
      </Stepper>
    </Stack>
  );
}

function TableCard({ preview: x, label }: { preview: TablePreview; label: string }): JSX.Element {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }} data-testid={`rollover-preview-${x.table}`}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text fw={600}>{label}</Text>
        <Group gap={6}>
          <Badge variant="light">{t('rollover.count_rows', { defaultValue: '{{n}} row(s)', n: x.rows })}</Badge>
          <Badge variant="light" color="green">
            {t('rollover.count_copy', { defaultValue: '{{n}} to copy', n: x.copy })}
          </Badge>
          <Badge variant="light" color={x.skip ? 'yellow' : 'gray'}>
            {t('rollover.count_skip', { defaultValue: '{{n}} already there', n: x.skip })}
          </Badge>
        </Group>
      </Group>
      {x.conflicts.length > 0 && (
        <Text size="xs" c="dimmed" mt={6}>
          {t('rollover.conflicts', { defaultValue: 'Skipped, already in the target year: {{list}}', list: x.conflicts.join(', ') })}
          {x.skip > x.conflicts.length ? ' …' : ''}
        </Text>
      )}
      {x.missing.map((m) => (
        <Text key={m.table} size="xs" c="red" mt={6}>
          {t('rollover.missing', { defaultValue: 'Missing {{what}}: {{list}}', what: m.label, list: m.rows.join(', ') })}
        </Text>
      ))}
      {x.amounts && x.copy > 0 && (
        <Table.ScrollContainer minWidth={300} mt="xs">
          <Table striped withTableBorder fz="xs" data-testid="rollover-amounts">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('rollover.fee', { defaultValue: 'Fee' })}</Table.Th>
                {x.amounts.fields.map((f) => (
                  <Table.Th key={f.field} ta="right">
                    {t(`field.fee.${f.field}`, { defaultValue: f.label })}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {x.amounts.examples.map((e) => (
                <Table.Tr key={e.title}>
                  <Table.Td>{e.title}</Table.Td>
                  {e.before.map((b, i) => (
                    <Table.Td key={i} ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {formatMoney(b)} → <b>{formatMoney(e.after[i])}</b>
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Td fw={600}>{t('rollover.total', { defaultValue: 'Total of {{n}} row(s)', n: x.copy })}</Table.Td>
                {x.amounts.fields.map((f) => (
                  <Table.Td key={f.field} ta="right" fw={600} style={{ whiteSpace: 'nowrap' }}>
                    {formatMoney(f.before)} → {formatMoney(f.after)}
                  </Table.Td>
                ))}
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}
