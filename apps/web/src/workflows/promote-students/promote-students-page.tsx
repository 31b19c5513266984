import { Alert, Badge, Button, Checkbox, Group, List, Paper, Select, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconArrowRight, IconEye, IconSchool } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { http, HttpError } from '../../lib/http-client';
import { toast } from '../../lib/toast';
import { WorkflowHeader } from '../workflow-screen/workflow-header';
import { defaultTarget, movesToRun, nextYearOf, sectionLabel, type PromotionChoices, type PromotionPreview, type PromotionResult } from './promotion-model';

const TABLE_PATH = '/sms/student/promotion/table';
const ROLL_MODES = ['Kept', 'Renumbered by name'] as const;

/**
 * Promote: this year's sections into next year. Choose the years and the sections (each to a section of the
 * next class by default), preview who moves, who is already there, who is held back and who leaves from the
 * top class, untick a child to hold him back, then promote. Undo is the grid's button on each promotion.
 */
export function PromoteStudentsPage(): JSX.Element {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const choicesQuery = useQuery({
    queryKey: ['promotion-choices'],
    staleTime: 60_000,
    queryFn: ({ signal }) => http.get<PromotionChoices>('/api/promotion/choices', { signal }),
  });
  const choices = choicesQuery.data;
  const [fromYear, setFromYear] = useState<string | null>(null);
  const [toYear, setToYear] = useState<string | null>(null);
  const [roll, setRoll] = useState<string>('Kept');
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const [targets, setTargets] = useState<Record<number, string | null>>({});
  const [preview, setPreview] = useState<PromotionPreview | null>(null);
  const [heldBack, setHeldBack] = useState<Set<number>>(new Set());
  const [busy, setBusy] = useState<'preview' | 'run' | null>(null);

  const sections = useMemo(() => choices?.sections ?? [], [choices]);
  useEffect(() => {
    if (!choices || fromYear) return;
    const from = choices.current_acdm_cd ?? choices.years[0]?.acdm_cd ?? null;
    setFromYear(from === null ? null : String(from));
    const next = nextYearOf(choices.years, from);
    setToYear(next ? String(next.acdm_cd) : null);
  }, [choices, fromYear]);
  useEffect(() => {
    const start = sections.map((s): [number, string | null] => {
      const d = defaultTarget(sections, s);
      return [s.sec_cd, d === null ? null : String(d)];
    });
    setTargets(Object.fromEntries(start));
  }, [sections]);
  // Any change of what would be previewed makes the preview stale.
  useEffect(() => setPreview(null), [fromYear, toYear, roll, picked, targets]);

  const yearData = (choices?.years ?? []).map((y) => ({ value: String(y.acdm_cd), label: y.label }));
  const sectionData = sections.map((s) => ({ value: String(s.sec_cd), label: sectionLabel(s) }));
  const noNextYear = !!choices && !!fromYear && !nextYearOf(choices.years, Number(fromYear));
  const body = (moves: { frm_sec_cd: number; to_sec_cd: number; stud_cds?: number[] }[]) => ({ frm_acdm_cd: Number(fromYear), to_acdm_cd: Number(toYear), roll, moves });
  const chosenMoves = sections.filter((s) => picked.has(s.sec_cd)).map((s) => ({ frm_sec_cd: s.sec_cd, to_sec_cd: Number(targets[s.sec_cd] ?? 0) }));

  async function runPreview() {
    if (!fromYear || !toYear) return toast.danger(t('promotion.choose_years', { defaultValue: 'Choose the year to promote from and the year to promote into.' }));
    if (chosenMoves.length === 0) return toast.danger(t('promotion.choose_sections', { defaultValue: 'Choose the sections to promote.' }));
    const missing = chosenMoves.find((m) => !m.to_sec_cd);
    if (missing) {
      const s = sections.find((x) => x.sec_cd === missing.frm_sec_cd)!;
      return toast.danger(t('promotion.choose_target', { defaultValue: 'Choose where {{section}} goes.', section: sectionLabel(s) }));
    }
    setBusy('preview');
    try {
      setPreview(await http.post<PromotionPreview>('/api/promotion/preview', body(chosenMoves), { silent: true }));
      setHeldBack(new Set());
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      if (!e.aborted) toast.danger(e.message);
    } finally {
      setBusy(null);
    }
  }

  async function promote() {
    if (!preview) return;
    const moves = movesToRun(preview, heldBack);
    if (moves.length === 0) return toast.danger(t('promotion.nobody', { defaultValue: 'Nobody is chosen to promote.' }));
    setBusy('run');
    try {
      const res = await http.post<PromotionResult>('/api/promotion/', body(moves), { silent: true });
      const n = res.promotions.reduce((a, p) => a + p.prmtn_stud_cnt, 0);
      toast.success(t('promotion.done', { defaultValue: '{{n}} student(s) promoted into {{year}}.', n, year: res.to_acdm }));
      await queryClient.invalidateQueries();
      navigate(TABLE_PATH);
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      if (!e.aborted) toast.danger(e.message);
    } finally {
      setBusy(null);
    }
  }

  const toggleHeld = (id: number) =>
    setHeldBack((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });

  return (
    <Stack gap="md" maw={960}>
      <WorkflowHeader title={t('promotion.title', { defaultValue: 'Promote students' })} page={t('page.student.promotion', { defaultValue: 'Promotion' })} backTo={TABLE_PATH} />

      <Paper withBorder radius="md" p="md">
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <Select
            label={t('field.promotion.crt_acdm_cd', { defaultValue: 'From Year' })}
            data={yearData}
            value={fromYear}
            onChange={setFromYear}
            required
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            data-testid="promotion-from-year"
          />
          <Select
            label={t('field.promotion.to_acdm_cd', { defaultValue: 'To Year' })}
            data={yearData.filter((y) => y.value !== fromYear)}
            value={toYear}
            onChange={setToYear}
            required
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            data-testid="promotion-to-year"
          />
          <Select
            label={t('field.promotion.prmtn_roll', { defaultValue: 'Roll Numbers' })}
            data={ROLL_MODES.map((m) => ({ value: m, label: t(`option.promotion.prmtn_roll.${m}`, { defaultValue: m }) }))}
            value={roll}
            onChange={(v) => setRoll(v ?? 'Kept')}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
        </SimpleGrid>
        {noNextYear && (
          <Alert color="yellow" variant="light" mt="sm">
            {t('promotion.no_next_year', { defaultValue: 'The next academic year is not opened yet: add it on the Academic Year page first.' })}
          </Alert>
        )}
      </Paper>

      <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
        <Title order={2} size="h5" mb="xs">
          {t('promotion.sections', { defaultValue: 'Sections to promote' })}
        </Title>
        {choicesQuery.isPending ? (
          <Stack gap="xs">
            {Array.from({ length: 4 }, (_, i) => (
              <Skeleton key={i} h={36} />
            ))}
          </Stack>
        ) : (
          <Stack gap={0}>
            {sections.map((s) => (
              <Group key={s.sec_cd} justify="space-between" wrap="wrap" gap="xs" py={6} style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
                <Checkbox
                  label={sectionLabel(s)}
                  checked={picked.has(s.sec_cd)}
                  onChange={() =>
                    setPicked((p) => {
                      const n = new Set(p);
                      if (n.has(s.sec_cd)) n.delete(s.sec_cd);
                      else n.add(s.sec_cd);
                      return n;
                    })
                  }
                  data-testid={`promote-section-${s.sec_cd}`}
                />
                <Group gap={6} wrap="nowrap" style={{ flex: '1 1 200px', maxWidth: 280 }}>
                  <IconArrowRight size={14} style={{ flexShrink: 0 }} />
                  <Select
                    aria-label={t('promotion.target_of', { defaultValue: '{{section}} goes to', section: sectionLabel(s) })}
                    placeholder={t('promotion.leaves', { defaultValue: 'Leaves (TC)' })}
                    data={sectionData}
                    value={targets[s.sec_cd] ?? null}
                    onChange={(v) => setTargets((x) => ({ ...x, [s.sec_cd]: v }))}
                    searchable
                    clearable
                    size="xs"
                    style={{ flex: 1 }}
                    comboboxProps={{ withinPortal: true }}
                  />
                </Group>
              </Group>
            ))}
          </Stack>
        )}
        <Group justify="flex-end" mt="md">
          <Button variant="default" leftSection={<IconEye size={16} />} onClick={() => void runPreview()} loading={busy === 'preview'} w={{ base: '100%', xs: 'auto' }}>
            {t('promotion.preview', { defaultValue: 'Preview' })}
          </Button>
        </Group>
      </Paper>

      {preview && (
        <Stack gap="sm" data-testid="promotion-preview">
          {preview.moves.map((m) => (
            <Paper key={m.from.sec_cd} withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
              <Group justify="space-between" wrap="wrap" gap="xs" mb="xs">
                <Text fw={600}>
                  {sectionLabel(m.from)} ({preview.from.label}) → {sectionLabel(m.to)} ({preview.to.label})
                </Text>
                <Group gap={4}>
                  <Badge variant="light" color="green">
                    {t('promotion.moving_n', { defaultValue: '{{n}} moving', n: m.moving.filter((s) => !heldBack.has(s.stud_cd)).length })}
                  </Badge>
                  {m.already.length > 0 && (
                    <Badge variant="light" color="gray">
                      {t('promotion.already_n', { defaultValue: '{{n}} already there', n: m.already.length })}
                    </Badge>
                  )}
                </Group>
              </Group>
              {m.moving.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('promotion.none_moving', { defaultValue: 'Nobody left to move from this section.' })}
                </Text>
              ) : (
                <Stack gap={0}>
                  {m.moving.map((s) => (
                    <Checkbox
                      key={s.stud_cd}
                      py={6}
                      checked={!heldBack.has(s.stud_cd)}
                      onChange={() => toggleHeld(s.stud_cd)}
                      label={
                        <Text size="sm">
                          {s.stud_fs_nm}{' '}
                          <Text span size="xs" c="dimmed">
                            {s.stud_adm_cd}
                            {heldBack.has(s.stud_cd)
                              ? ` · ${t('promotion.held_back', { defaultValue: 'held back' })}`
                              : s.new_roll !== null
                                ? ` · ${t('promotion.roll', { defaultValue: 'Roll {{n}}', n: s.new_roll })}`
                                : ''}
                          </Text>
                        </Text>
                      }
                    />
                  ))}
                </Stack>
              )}
              {m.already.length > 0 && (
                <>
                  <Text size="sm" fw={600} mt="xs">
                    {t('promotion.already', { defaultValue: 'Already in {{year}} (skipped)', year: preview.to.label })}
                  </Text>
                  <List size="sm">
                    {m.already.map((s) => (
                      <List.Item key={s.stud_cd}>
                        {s.stud_fs_nm} ({s.there_cls_nm} {s.there_sec_nm})
                      </List.Item>
                    ))}
                  </List>
                </>
              )}
            </Paper>
          ))}
          {preview.leaving.map((l) => (
            <Alert key={l.section.sec_cd} color="orange" variant="light" icon={<IconSchool size={18} />} title={t('promotion.leaving', { defaultValue: '{{section}} leaves the school (TC)', section: sectionLabel(l.section) })}>
              <Text size="sm">{l.students.map((s) => s.stud_fs_nm).join(', ')}</Text>
            </Alert>
          ))}
          <Group justify="flex-end">
            <Button leftSection={<IconSchool size={16} />} onClick={() => void promote()} loading={busy === 'run'} w={{ base: '100%', xs: 'auto' }} data-testid="promotion-run">
              {t('promotion.promote', { defaultValue: 'Promote' })}
            </Button>
          </Group>
        </Stack>
      )}
    </Stack>
  );
}
