import { Alert, Badge, Button, Checkbox, Group, List, Paper, Select, SimpleGrid, Skeleton, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconArrowsExchange, IconSearch } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { WorkflowHeader } from '../workflow-screen/workflow-header';
import { useParams } from 'react-router';
import { http, HttpError } from '../../lib/http-client';
import { toast } from '../../lib/toast';
import { requiredFieldMessage } from '../../lib/validation';
import { classChoices, keepOrOnly, sectionChoicesOf, type SectionChoice } from '../section-choice/section-choice';
import { filterStudents, selectedIn, toggle, toggleShown, type MovableStudent } from './interchange-model';

const TABLE_PATH = '/sms/student/interchange/table';

interface MoveResult {
  cls_nm: string;
  frm_sec_nm: string;
  to_sec_nm: string;
  moved: { stud_intchg_cd: number; stud_cd: number; stud_fs_nm: string }[];
}

interface MoveRecord {
  stud_cd: number;
  cls_cd: number;
  frm_sec_cd: number;
  to_sec_cd: number;
}

/** update/{id} (the history grid's Edit on one move) offers to move that student back where he came from. */
function useRecordToReverse(): number | null {
  const rest = useParams()['*'] ?? '';
  const [mode, id] = rest.split('/');
  return mode === 'update' && /^[1-9]\d*$/.test(id ?? '') ? Number(id) : null;
}

/** Moving students of this year from one section of a class to another (rebalancing 9-A and 9-B). */
export function InterchangeStudentsPage(): JSX.Element {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [cls, setCls] = useState<string | null>(null);
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [reason, setReason] = useState('');
  const [moving, setMoving] = useState(false);
  const [result, setResult] = useState<MoveResult | null>(null);

  const recordId = useRecordToReverse();
  const record = useQuery({
    queryKey: ['interchange-record', recordId],
    enabled: recordId !== null,
    queryFn: ({ signal }) => http.get<MoveRecord>(`/api/student_interchange/${recordId}`, { signal }),
  });
  const [pending, setPending] = useState<MoveRecord | null>(null);
  useEffect(() => {
    if (record.data) setPending(record.data);
  }, [record.data]);

  const sectionsQuery = useQuery({
    queryKey: ['interchange-sections'],
    staleTime: 60_000,
    queryFn: ({ signal }) => http.get<SectionChoice[]>('/api/student_interchange/sections', { signal }),
  });
  const sections = useMemo(() => sectionsQuery.data ?? [], [sectionsQuery.data]);
  const classes = useMemo(() => classChoices(sections), [sections]);
  const fromChoices = useMemo(() => sectionChoicesOf(sections, cls), [sections, cls]);
  const toChoices = useMemo(() => sectionChoicesOf(sections, cls, from), [sections, cls, from]);
  const sectionsLoaded = sectionsQuery.isSuccess;
  useEffect(() => {
    // Before the list arrives nothing is known to be gone.
    if (sectionsLoaded) setFrom((f) => (fromChoices.some((c) => c.value === f) ? f : null));
  }, [fromChoices, sectionsLoaded]);
  useEffect(() => {
    if (sectionsLoaded) setTo((x) => keepOrOnly(toChoices, x));
  }, [toChoices, sectionsLoaded]);
  useEffect(() => setSelected(new Set()), [from]);
  // The reversal: from where the move took him, back to where he was, with him ticked.
  useEffect(() => {
    if (!pending || !sectionsLoaded) return;
    setCls(String(pending.cls_cd));
    setFrom(String(pending.to_sec_cd));
    setTo(String(pending.frm_sec_cd));
  }, [pending, sectionsLoaded]);

  const studentsQuery = useQuery({
    queryKey: ['interchange-students', cls, from],
    enabled: !!cls && !!from,
    staleTime: 0,
    queryFn: ({ signal }) => http.get<MovableStudent[]>('/api/student_interchange/students', { signal, query: { cls_cd: cls ?? '', sec_cd: from ?? '' } }),
  });
  const students = useMemo(() => studentsQuery.data ?? [], [studentsQuery.data]);
  useEffect(() => {
    if (!pending || !studentsQuery.data || from !== String(pending.to_sec_cd)) return;
    if (studentsQuery.data.some((x) => x.stud_cd === pending.stud_cd)) setSelected(new Set([pending.stud_cd]));
    setPending(null);
  }, [pending, studentsQuery.data, from]);
  const shown = filterStudents(students, search);
  const picked = selectedIn(selected, students);
  const allShown = shown.length > 0 && shown.every((s) => selected.has(s.stud_cd));
  const someShown = shown.some((s) => selected.has(s.stud_cd));

  const sectionLabel = t('field.student_interchange.to_sec_cd', { defaultValue: 'To Section' });
  const reasonLabel = t('field.student_interchange.stud_intchg_rsn', { defaultValue: 'Reason' });

  async function move() {
    if (!cls || !from) return;
    if (!to) return toast.danger(requiredFieldMessage({ control: 'select', label: sectionLabel }));
    if (picked.length === 0) return toast.danger(t('interchange.pick_students', { defaultValue: 'Please select the students to move.' }));
    if (!reason.trim()) return toast.danger(requiredFieldMessage({ control: 'textarea', label: reasonLabel }));
    setMoving(true);
    try {
      const res = await http.post<MoveResult>(
        '/api/student_interchange/move',
        { cls_cd: Number(cls), frm_sec_cd: Number(from), to_sec_cd: Number(to), stud_cds: picked, reason: reason.trim() },
        { silent: true },
      );
      setResult(res);
      setSelected(new Set());
      setReason('');
      toast.success(t('interchange.done', { defaultValue: '{{n}} student(s) moved to {{section}}.', n: res.moved.length, section: `${res.cls_nm} ${res.to_sec_nm}` }));
      await queryClient.invalidateQueries({ queryKey: ['interchange-students'] });
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      if (!e.aborted) toast.danger(e.message);
    } finally {
      setMoving(false);
    }
  }

  return (
    <Stack gap="md" maw={900}>
      <WorkflowHeader
        title={t('interchange.title', { defaultValue: 'Move students between sections' })}
        page={t('page.student.interchange', { defaultValue: 'Interchange' })}
        backTo={TABLE_PATH}
      />

      <Paper withBorder radius="md" p="md">
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <Select
            label={t('field.student_interchange.cls_cd', { defaultValue: 'Class' })}
            placeholder={t('attendance.choose_class', { defaultValue: 'Choose a class' })}
            data={classes}
            value={cls}
            onChange={setCls}
            searchable
            required
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label={t('field.student_interchange.frm_sec_cd', { defaultValue: 'From Section' })}
            placeholder={t('attendance.choose_section', { defaultValue: 'Choose a section' })}
            data={fromChoices}
            value={from}
            onChange={setFrom}
            disabled={!cls}
            required
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label={sectionLabel}
            placeholder={t('attendance.choose_section', { defaultValue: 'Choose a section' })}
            data={toChoices}
            value={to}
            onChange={setTo}
            disabled={!from}
            required
            comboboxProps={{ withinPortal: true }}
          />
        </SimpleGrid>
      </Paper>

      {result && (
        <Alert color="green" variant="light" withCloseButton onClose={() => setResult(null)} data-testid="interchange-result">
          <Text size="sm" fw={600}>
            {t('interchange.done', { defaultValue: '{{n}} student(s) moved to {{section}}.', n: result.moved.length, section: `${result.cls_nm} ${result.to_sec_nm}` })}
          </Text>
          <List size="sm" mt={4}>
            {result.moved.map((m) => (
              <List.Item key={m.stud_intchg_cd}>{m.stud_fs_nm}</List.Item>
            ))}
          </List>
        </Alert>
      )}

      {cls && from && (
        <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
          <TextInput
            mb="xs"
            w={{ base: '100%', sm: 320 }}
            placeholder={t('interchange.search', { defaultValue: 'Search name, admission or roll no' })}
            leftSection={<IconSearch size={14} />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
          />
          <Group justify="space-between" wrap="wrap" gap="xs" mb="sm">
            <Checkbox
              label={t('btn.select_all', { defaultValue: 'Select all' })}
              checked={allShown}
              indeterminate={!allShown && someShown}
              disabled={shown.length === 0}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                setSelected((s) => toggleShown(s, shown, on));
              }}
            />
            <Badge variant="light" style={{ flexShrink: 0 }}>
              {picked.length} / {students.length}
            </Badge>
          </Group>
          {studentsQuery.isPending ? (
            <Stack gap="xs">
              {Array.from({ length: 4 }, (_, i) => (
                <Skeleton key={i} h={32} />
              ))}
            </Stack>
          ) : students.length === 0 ? (
            <Text c="dimmed">{t('attendance.no_students', { defaultValue: 'This section has no students this year.' })}</Text>
          ) : (
            <Stack gap={0} mah={420} style={{ overflowY: 'auto' }}>
              {shown.map((s) => (
                <Checkbox
                  key={s.stud_cd}
                  py={8}
                  style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
                  checked={selected.has(s.stud_cd)}
                  onChange={() => setSelected((x) => toggle(x, s.stud_cd))}
                  label={
                    <Text size="sm">
                      {s.stud_roll_nmb !== null ? `${s.stud_roll_nmb}. ` : ''}
                      {s.stud_fs_nm}{' '}
                      <Text span size="xs" c="dimmed">
                        {s.stud_adm_cd}
                      </Text>
                    </Text>
                  }
                />
              ))}
            </Stack>
          )}
          <Textarea
            mt="md"
            label={reasonLabel}
            required
            autosize
            minRows={2}
            maxLength={500}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
          />
          <Group justify="flex-end" mt="md">
            <Button leftSection={<IconArrowsExchange size={16} />} onClick={() => void move()} loading={moving} disabled={picked.length === 0} w={{ base: '100%', xs: 'auto' }}>
              {t('interchange.move', { defaultValue: 'Move' })}
            </Button>
          </Group>
        </Paper>
      )}
    </Stack>
  );
}
