import { Alert, Badge, Button, Checkbox, Group, Paper, Select, SimpleGrid, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconDeviceFloppy, IconInfoCircle } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type JSX, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { WorkflowHeader } from '../workflow-screen/workflow-header';
import { usePagePermission } from '../../app/page-permission-context';
import { http, HttpError } from '../../lib/http-client';
import { toast } from '../../lib/toast';
import { badRows, changedCount, checkMarks, entryResult, entryRows, examLabel, savePayload, type EntryRow, type ExamChoice, type MarkRowChoice, type Sheet } from './marks-model';

const TABLE_PATH = '/sms/exam/mark_list/table';

/**
 * Entering one subject's marks of an exam: pick the exam, then the subject, then type each student's marks
 * down the list (Enter or Tab moves to the next student), with pass or fail shown as they are typed. Saved
 * as one sheet; the server checks every mark again.
 */
export function EnterMarksPage(): JSX.Element {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { can } = usePagePermission();
  const [exam, setExam] = useState<string | null>(null);
  const [subject, setSubject] = useState<string | null>(null);
  const [rows, setRows] = useState<EntryRow[]>([]);
  const [saving, setSaving] = useState(false);
  const inputs = useRef(new Map<number, HTMLInputElement>());

  const exams = useQuery({
    queryKey: ['marks-exams'],
    staleTime: 60_000,
    queryFn: ({ signal }) => http.get<ExamChoice[]>('/api/student_mark/exams', { signal }),
  });
  const subjects = useQuery({
    queryKey: ['marks-subjects', exam],
    enabled: !!exam,
    queryFn: ({ signal }) => http.get<MarkRowChoice[]>('/api/student_mark/subjects', { signal, query: { exm_cd: exam ?? '' } }),
  });
  useEffect(() => {
    // A new exam keeps the subject only when it has it too; an exam with one subject picks it.
    const list = subjects.data;
    if (!list) return;
    setSubject((cur) => (cur && list.some((s) => String(s.mrk_cd) === cur) ? cur : list.length === 1 ? String(list[0].mrk_cd) : null));
  }, [subjects.data]);

  const sheetQuery = useQuery({
    queryKey: ['marks-sheet', subject],
    enabled: !!subject,
    staleTime: 0,
    queryFn: ({ signal }) => http.get<Sheet>('/api/student_mark/sheet', { signal, query: { mrk_cd: subject ?? '' } }),
  });
  const sheet = sheetQuery.data;
  useEffect(() => setRows(sheet ? entryRows(sheet) : []), [sheet]);

  const examData = useMemo(() => (exams.data ?? []).map((e) => ({ value: String(e.exm_cd), label: examLabel(e) })), [exams.data]);
  const subjectData = useMemo(
    () => (subjects.data ?? []).map((s) => ({ value: String(s.mrk_cd), label: `${s.sub_nm} (${s.mrk_min_mrk}/${s.mrk_max_mrk})` })),
    [subjects.data],
  );

  const max = sheet?.mrk_max_mrk ?? 0;
  const pass = sheet?.mrk_min_mrk ?? 0;
  const bad = badRows(rows, max);
  const changes = sheet ? changedCount(sheet, rows) : 0;
  const needsEdit = !!sheet?.saved && rows.some((r) => sheet.rows.find((s) => s.stud_cd === r.stud_cd)?.saved) && changes > 0;
  const blocked = !sheet || rows.length === 0 || bad.length > 0 || changes === 0 || !can('create');
  const passed = rows.filter((r) => entryResult(r, max, pass) === 'Pass').length;
  const failed = rows.filter((r) => entryResult(r, max, pass) === 'Fail').length;

  const update = (studCd: number, change: Partial<EntryRow>) => setRows((rs) => rs.map((r) => (r.stud_cd === studCd ? { ...r, ...change } : r)));

  const moveFrom = (e: KeyboardEvent<HTMLInputElement>, index: number) => {
    if (e.key !== 'Enter' && e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const next = rows[index + (e.key === 'ArrowUp' ? -1 : 1)];
    if (next) inputs.current.get(next.stud_cd)?.focus();
  };

  async function save() {
    if (!sheet || blocked) return;
    setSaving(true);
    try {
      const res = await http.post<{ saved: number }>('/api/student_mark/sheet', savePayload(sheet, rows), { silent: true });
      toast.success(t('marks.saved', { defaultValue: 'Marks saved for {{n}} students.', n: res.saved }));
      await queryClient.invalidateQueries({ queryKey: ['marks-sheet', subject] });
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      if (!e.aborted) toast.danger(e.message);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Stack gap="md" maw={900}>
      <WorkflowHeader
        title={t('marks.enter_title', { defaultValue: 'Enter marks' })}
        page={t('page.exam.mark_list', { defaultValue: 'Mark List' })}
        backTo={TABLE_PATH}
        onSave={() => void save()}
        saving={saving}
        saveDisabled={blocked}
      />

      <Paper withBorder radius="md" p="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label={t('field.student_mark.exm_cd', { defaultValue: 'Exam' })}
            placeholder={t('marks.choose_exam', { defaultValue: 'Choose an exam' })}
            data={examData}
            value={exam}
            onChange={setExam}
            searchable
            required
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label={t('field.student_mark.sub_cd', { defaultValue: 'Subject' })}
            placeholder={t('marks.choose_subject', { defaultValue: 'Choose a subject' })}
            data={subjectData}
            value={subject}
            onChange={setSubject}
            disabled={!exam}
            required
            comboboxProps={{ withinPortal: true }}
          />
        </SimpleGrid>
      </Paper>

      {exams.isSuccess && exams.data.length === 0 && (
        <Alert color="yellow" icon={<IconInfoCircle size={18} />}>
          {t('marks.no_exams', { defaultValue: 'No exam is scheduled for your sections this year.' })}
        </Alert>
      )}
      {exam && subjects.isSuccess && subjects.data.length === 0 && (
        <Alert color="yellow" icon={<IconInfoCircle size={18} />}>
          {t('marks.no_subjects', { defaultValue: 'This exam has no subjects you may enter marks for. Set them up under Mark first.' })}
        </Alert>
      )}
      {needsEdit && !can('edit') && (
        <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />}>
          {t('marks.needs_edit', { defaultValue: 'Changing marks already saved needs the Edit permission.' })}
        </Alert>
      )}

      {sheetQuery.isFetching && !sheet ? (
        <Stack gap="xs">
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} h={44} />
          ))}
        </Stack>
      ) : sheet ? (
        <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
          <Group justify="space-between" wrap="wrap" gap="xs" mb="sm" aria-live="polite">
            <Text size="sm">
              {t('marks.out_of', { defaultValue: 'Maximum {{max}}, pass mark {{pass}}', max, pass })}
            </Text>
            <Group gap={6}>
              <Badge color="green" variant="light" size="lg">
                {t('marks.result.Pass', { defaultValue: 'Pass' })}: {passed}
              </Badge>
              <Badge color="red" variant="light" size="lg">
                {t('marks.result.Fail', { defaultValue: 'Fail' })}: {failed}
              </Badge>
            </Group>
          </Group>
          {rows.length === 0 ? (
            <Text c="dimmed">{t('marks.no_students', { defaultValue: 'This section has no students this year.' })}</Text>
          ) : (
            <Stack gap={0}>
              {rows.map((r, i) => {
                const check = checkMarks(r.marks, max);
                const result = entryResult(r, max, pass);
                const error =
                  !r.absent && check.kind === 'bad'
                    ? check.reason === 'above'
                      ? t('marks.above_max', { defaultValue: 'More than {{max}}', max })
                      : t('marks.bad_format', { defaultValue: 'Whole or half marks' })
                    : undefined;
                return (
                  <Group key={r.stud_cd} wrap="wrap" gap={8} py={6} align="flex-start" style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
                    <Text fw={600} size="sm" style={{ flex: '1 1 160px', minWidth: 0, paddingTop: 6 }} truncate>
                      {r.stud_roll_nmb !== null ? `${r.stud_roll_nmb}. ` : ''}
                      {r.stud_fs_nm}
                    </Text>
                    <TextInput
                      ref={(el) => {
                        if (el) inputs.current.set(r.stud_cd, el);
                        else inputs.current.delete(r.stud_cd);
                      }}
                      aria-label={`${t('field.student_mark.stud_mrk_obt', { defaultValue: 'Marks Obtained' })}: ${r.stud_fs_nm}`}
                      inputMode="decimal"
                      w={96}
                      size="sm"
                      value={r.marks}
                      disabled={r.absent}
                      error={error}
                      onChange={(e) => update(r.stud_cd, { marks: e.currentTarget.value })}
                      onKeyDown={(e) => moveFrom(e, i)}
                    />
                    <Checkbox
                      label={t('field.student_mark.stud_mrk_abs', { defaultValue: 'Absent' })}
                      checked={r.absent}
                      // Tab goes from one student's marks to the next; the mouse reaches the rest.
                      tabIndex={-1}
                      mt={8}
                      onChange={(e) => update(r.stud_cd, { absent: e.currentTarget.checked, marks: e.currentTarget.checked ? '' : r.marks })}
                    />
                    <Badge mt={6} w={64} variant="light" color={result === 'Pass' ? 'green' : result === 'Fail' ? 'red' : 'gray'}>
                      {result ? t(`marks.result.${result}`, { defaultValue: result }) : '-'}
                    </Badge>
                    <TextInput
                      aria-label={`${t('field.student_mark.stud_mrk_rmks', { defaultValue: 'Remarks' })}: ${r.stud_fs_nm}`}
                      placeholder={t('field.student_mark.stud_mrk_rmks', { defaultValue: 'Remarks' })}
                      size="sm"
                      tabIndex={-1}
                      maxLength={200}
                      style={{ flex: '1 1 140px' }}
                      value={r.remarks}
                      onChange={(e) => update(r.stud_cd, { remarks: e.currentTarget.value })}
                    />
                  </Group>
                );
              })}
            </Stack>
          )}
          <Group justify="space-between" mt="md" wrap="wrap" gap="xs">
            <Text size="xs" c="dimmed">
              {t('marks.keys_hint', { defaultValue: 'Tip: Enter or Tab moves to the next student.' })}
              {changes > 0 && ` · ${t('marks.unsaved', { defaultValue: '{{n}} unsaved', n: changes })}`}
            </Text>
            <Button leftSection={<IconDeviceFloppy size={16} />} onClick={() => void save()} loading={saving} disabled={blocked} w={{ base: '100%', xs: 'auto' }}>
              {t('btn.save', { defaultValue: 'Save' })}
            </Button>
          </Group>
        </Paper>
      ) : null}
    </Stack>
  );
}
