import { Alert, Badge, Button, Group, Paper, SegmentedControl, Select, SimpleGrid, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import '@mantine/dates/styles.css';
import { DatePickerInput } from '@mantine/dates';
import { IconCalendar, IconChecks, IconDeviceFloppy, IconInfoCircle } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useEffect, useMemo, useState, type JSX, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { WorkflowHeader } from '../workflow-screen/workflow-header';
import { useParams } from 'react-router';
import { usePagePermission } from '../../app/page-permission-context';
import { DATE_FORMAT } from '../../lib/format';
import { http, HttpError } from '../../lib/http-client';
import { toast } from '../../lib/toast';
import { classChoices, keepOrOnly, sectionChoicesOf, type SectionChoice } from '../section-choice/section-choice';
import {
  allPresent,
  changedCount,
  countMarks,
  presentShare,
  savePayload,
  setRemarks,
  setStatus,
  statusForKey,
  type AttendanceStatus,
  type Sheet,
  type SheetRow,
} from './attendance-model';

const TABLE_PATH = '/sms/student/attendance/table';
const today = (): string => dayjs().format('YYYY-MM-DD');

/** update/{id} (the grid's Edit on one attendance row) opens that row's section and day. */
function useRowToOpen(): number | null {
  const rest = useParams()['*'] ?? '';
  const [mode, id] = rest.split('/');
  return mode === 'update' && /^[1-9]\d*$/.test(id ?? '') ? Number(id) : null;
}

/**
 * Marking a section's attendance for one day: every student of the section with Present / Absent / On Duty,
 * saved as one sheet. Made for a teacher's phone: one student per line, big targets, P/A/O keys on a line.
 */
export function MarkAttendancePage(): JSX.Element {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { can } = usePagePermission();
  const rowId = useRowToOpen();

  const [date, setDate] = useState<string>(today);
  const [cls, setCls] = useState<string | null>(null);
  const [sec, setSec] = useState<string | null>(null);
  const [rows, setRows] = useState<SheetRow[]>([]);
  const [saving, setSaving] = useState(false);

  const sectionsQuery = useQuery({
    queryKey: ['attendance-sections'],
    staleTime: 60_000,
    queryFn: ({ signal }) => http.get<SectionChoice[]>('/api/student_attendance/sections', { signal }),
  });
  const sections = useMemo(() => sectionsQuery.data ?? [], [sectionsQuery.data]);
  const classes = useMemo(() => classChoices(sections), [sections]);
  const secChoices = useMemo(() => sectionChoicesOf(sections, cls), [sections, cls]);

  const opened = useQuery({
    queryKey: ['attendance-row', rowId],
    enabled: rowId !== null,
    queryFn: ({ signal }) => http.get<{ cls_cd: number; sec_cd: number; stud_attn_dt: string }>(`/api/student_attendance/${rowId}`, { signal }),
  });
  useEffect(() => {
    if (!opened.data) return;
    setDate(opened.data.stud_attn_dt);
    setCls(String(opened.data.cls_cd));
    setSec(String(opened.data.sec_cd));
  }, [opened.data]);

  // A teacher with one class, or a class with one section, has nothing to choose.
  useEffect(() => {
    if (cls === null && classes.length === 1) setCls(classes[0].value);
  }, [classes, cls]);
  const sectionsLoaded = sectionsQuery.isSuccess;
  useEffect(() => {
    // Before the list arrives nothing is known to be gone: a section opened from the grid must survive.
    if (sectionsLoaded) setSec((current) => keepOrOnly(secChoices, current));
  }, [secChoices, sectionsLoaded]);

  const sheetQuery = useQuery({
    queryKey: ['attendance-sheet', cls, sec, date],
    enabled: !!cls && !!sec && !!date,
    staleTime: 0,
    queryFn: ({ signal }) => http.get<Sheet>('/api/student_attendance/sheet', { signal, query: { cls_cd: cls ?? '', sec_cd: sec ?? '', date } }),
  });
  const sheet = sheetQuery.data;
  useEffect(() => {
    setRows(sheet?.rows ?? []);
  }, [sheet]);

  const counts = countMarks(rows);
  const changes = sheet ? changedCount(sheet.rows, rows) : 0;
  // Marking (and correcting the same day) is 'create'; an earlier day already saved needs 'edit' (the server agrees).
  const needsEdit = !!sheet?.saved && date < (sheet?.today ?? today());
  const blocked = !sheet || !!sheet.refusal || rows.length === 0 || (needsEdit && !can('edit')) || !can('create');

  const statusLabel = (s: AttendanceStatus): string =>
    s === 'Present'
      ? t('option.student_attendance.stud_attn_sts.Present', { defaultValue: 'Present' })
      : s === 'Absent'
        ? t('option.student_attendance.stud_attn_sts.Absent', { defaultValue: 'Absent' })
        : t('option.student_attendance.stud_attn_sts.OD', { defaultValue: 'On Duty' });

  async function save() {
    if (!sheet || blocked) return;
    setSaving(true);
    try {
      const res = await http.post<{ present: number; absent: number; od: number }>('/api/student_attendance/sheet', savePayload(sheet, rows), { silent: true });
      toast.success(
        t('attendance.saved', {
          defaultValue: 'Attendance saved: {{present}} present, {{absent}} absent, {{od}} on duty.',
          present: res.present,
          absent: res.absent,
          od: res.od,
        }),
      );
      await queryClient.invalidateQueries({ queryKey: ['attendance-sheet', cls, sec, date] });
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      if (!e.aborted) toast.danger(e.message);
    } finally {
      setSaving(false);
    }
  }

  const onRowKey = (e: KeyboardEvent<HTMLDivElement>, studCd: number) => {
    // Typing a remark must not mark the student.
    if ((e.target as HTMLElement).tagName === 'INPUT' && (e.target as HTMLInputElement).type === 'text') return;
    const s = statusForKey(e.key);
    if (!s || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault();
    setRows((r) => setStatus(r, studCd, s));
  };

  return (
    <Stack gap="md" maw={900}>
      <WorkflowHeader
        title={t('attendance.title', { defaultValue: 'Mark attendance' })}
        page={t('page.student.attendance', { defaultValue: 'Attendance' })}
        backTo={TABLE_PATH}
        onSave={() => void save()}
        saving={saving}
        saveDisabled={blocked}
      />

      <Paper withBorder radius="md" p="md">
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <DatePickerInput
            label={t('field.student_attendance.stud_attn_dt', { defaultValue: 'Date' })}
            value={date}
            onChange={(v) => v && setDate(v)}
            maxDate={today()}
            valueFormat={DATE_FORMAT}
            leftSection={<IconCalendar size={14} />}
            required
          />
          <Select
            label={t('field.student_attendance.cls_cd', { defaultValue: 'Class' })}
            placeholder={t('attendance.choose_class', { defaultValue: 'Choose a class' })}
            data={classes}
            value={cls}
            onChange={setCls}
            searchable
            required
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label={t('field.student_attendance.sec_cd', { defaultValue: 'Section' })}
            placeholder={t('attendance.choose_section', { defaultValue: 'Choose a section' })}
            data={secChoices}
            value={sec}
            onChange={setSec}
            disabled={!cls}
            required
            comboboxProps={{ withinPortal: true }}
          />
        </SimpleGrid>
      </Paper>

      {sectionsQuery.isSuccess && sections.length === 0 && (
        <Alert color="yellow" icon={<IconInfoCircle size={18} />}>
          {t('attendance.no_sections', { defaultValue: 'No section is mapped to you yet: ask the office to map your subjects.' })}
        </Alert>
      )}
      {sheet?.refusal && <Alert color="red">{sheet.refusal}</Alert>}
      {sheet && !sheet.refusal && sheet.sunday && (
        <Alert color="yellow">{t('attendance.sunday', { defaultValue: 'This day is a Sunday. Save only if the school worked that day.' })}</Alert>
      )}
      {sheet?.saved && (
        <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />}>
          {t('attendance.already_saved', { defaultValue: 'Saved earlier by {{name}}. Saving again replaces it.', name: sheet.marked_by ?? '-' })}
          {needsEdit && !can('edit') && ` ${t('attendance.needs_edit', { defaultValue: 'Correcting an earlier day needs the Edit permission.' })}`}
        </Alert>
      )}

      {(!cls || !sec) && !sectionsQuery.isPending && sections.length > 0 && (
        <Alert variant="light">{t('attendance.choose_first', { defaultValue: 'Choose the class and the section to mark.' })}</Alert>
      )}
      {sheetQuery.isFetching && !sheet ? (
        <Stack gap="xs">
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} h={48} />
          ))}
        </Stack>
      ) : sheet ? (
        <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
          <Group justify="space-between" wrap="wrap" gap="xs" mb="sm">
            <Group gap={6} wrap="wrap" aria-live="polite" data-testid="attendance-counts">
              <Badge color="green" variant="light" size="lg">
                {statusLabel('Present')}: {counts.present}
              </Badge>
              <Badge color="red" variant="light" size="lg">
                {statusLabel('Absent')}: {counts.absent}
              </Badge>
              <Badge color="blue" variant="light" size="lg">
                {statusLabel('OD')}: {counts.od}
              </Badge>
              <Text size="sm" c="dimmed">
                {t('common.total', { defaultValue: 'Total' })} {counts.total} · {presentShare(counts)}%
              </Text>
            </Group>
            <Button variant="light" leftSection={<IconChecks size={16} />} onClick={() => setRows((r) => allPresent(r))} disabled={rows.length === 0}>
              {t('attendance.all_present', { defaultValue: 'All present' })}
            </Button>
          </Group>
          {rows.length === 0 ? (
            <Text c="dimmed">{t('attendance.no_students', { defaultValue: 'This section has no students this year.' })}</Text>
          ) : (
            <Stack gap={0}>
              {rows.map((r) => (
                <Group
                  key={r.stud_cd}
                  justify="space-between"
                  align="center"
                  wrap="wrap"
                  gap={6}
                  py={8}
                  style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
                  onKeyDown={(e) => onRowKey(e, r.stud_cd)}
                >
                  <div style={{ minWidth: 0, flex: '1 1 180px' }}>
                    <Text fw={600} size="sm" truncate>
                      {r.stud_roll_nmb !== null ? `${r.stud_roll_nmb}. ` : ''}
                      {r.stud_fs_nm}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {r.stud_adm_cd}
                      {r.on_leave && ` · ${t('attendance.on_leave', { defaultValue: 'On approved leave' })}`}
                    </Text>
                  </div>
                  <SegmentedControl
                    aria-label={r.stud_fs_nm}
                    value={r.status}
                    onChange={(v) => setRows((rs) => setStatus(rs, r.stud_cd, v as AttendanceStatus))}
                    color={r.status === 'Present' ? 'green' : r.status === 'Absent' ? 'red' : 'blue'}
                    data={[
                      { value: 'Present', label: 'P' },
                      { value: 'Absent', label: 'A' },
                      { value: 'OD', label: 'OD' },
                    ].map((o) => ({ ...o, label: <span title={statusLabel(o.value as AttendanceStatus)}>{o.label}</span> }))}
                    w={{ base: '100%', xs: 210 }}
                  />
                  {(r.status !== 'Present' || r.remarks !== '') && (
                    <TextInput
                      size="xs"
                      w="100%"
                      aria-label={t('field.student_attendance.stud_attn_rmks', { defaultValue: 'Remarks' })}
                      placeholder={t('field.student_attendance.stud_attn_rmks', { defaultValue: 'Remarks' })}
                      maxLength={200}
                      value={r.remarks}
                      onChange={(e) => {
                        const v = e.currentTarget.value;
                        setRows((rs) => setRemarks(rs, r.stud_cd, v));
                      }}
                    />
                  )}
                </Group>
              ))}
            </Stack>
          )}
          <Group justify="space-between" mt="md" wrap="wrap" gap="xs">
            <Text size="xs" c="dimmed">
              {t('attendance.keys_hint', { defaultValue: 'Tip: on a student, press P, A or O.' })}
              {changes > 0 && ` · ${t('attendance.unsaved', { defaultValue: '{{n}} unsaved', n: changes })}`}
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
