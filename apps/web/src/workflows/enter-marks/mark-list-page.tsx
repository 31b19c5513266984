import { Alert, Badge, Box, Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconFileSpreadsheet, IconId, IconInfoCircle, IconPencil, IconPrinter } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import {
  CellStyleModule,
  ClientSideRowModelApiModule,
  ClientSideRowModelModule,
  ColumnAutoSizeModule,
  LocaleModule,
  ModuleRegistry,
  RowSelectionModule,
  themeQuartz,
  type ColDef,
  type GridApi,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import dayjs from 'dayjs';
import { useMemo, useRef, useState, type JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { usePagePermission } from '../../app/page-permission-context';
import { downloadWorkbook, newWorkbook } from '../../engine/excel-loader';
import { exportFileName } from '../../engine/export-rows';
import { gridLocaleText } from '../../engine/grid-locale';
import { MOBILE_QUERY } from '../../engine/responsive';
import { HttpError, http } from '../../lib/http-client';
import { printPdf } from '../../lib/print-pdf';
import { toast } from '../../lib/toast';
import {
  examLabel,
  failedSubject,
  flattenMarkList,
  formatPercentage,
  latestEnded,
  markListColumns,
  subjectColumn,
  type ExamChoice,
  type FlatMarkRow,
  type MarkList,
} from './marks-model';

const today = (): string => dayjs().format('YYYY-MM-DD');

/*
 * Registering twice is harmless: the engine's grid registers some of these too, but this screen may open
 * first. ClientSideRowModelApiModule is what forEachNodeAfterFilterAndSort needs (Export and Print take the
 * rows in the order shown); without it AG Grid logs error #200 and the call does nothing, so both came out
 * empty. RowSelectionModule: one student is picked for the report card.
 */
ModuleRegistry.registerModules([ClientSideRowModelModule, ClientSideRowModelApiModule, RowSelectionModule, ColumnAutoSizeModule, CellStyleModule, LocaleModule]);

// The engine grid's look (entity-grid.tsx), so the report reads like every other table.
const gridTheme = themeQuartz.withParams({ fontFamily: 'inherit', fontSize: 13, headerFontSize: 13, headerFontWeight: 600, wrapperBorderRadius: 4, cellHorizontalPadding: 8 });

const NUMERIC = new Set(['stud_roll_nmb', 'total', 'max_total', 'percentage', 'rank']);

/** Numbers sort as numbers whatever text the server sent; empty first, then 'AB', then marks. */
const sortValue = (v: unknown): number => (v === null || v === undefined || v === '' ? -2 : Number.isNaN(Number(v)) ? -1 : Number(v));

/**
 * The mark list (exam/mark_list, table mode): pick an exam and see every student of its section with a
 * column per subject, total, percentage, result and rank as the server computed them; export the shown rows
 * to Excel or print them. 'Enter marks' opens the entry sheet (the page's create mode).
 */
export function MarkListPage(): JSX.Element {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { can } = usePagePermission();
  const isMobile = useMediaQuery(MOBILE_QUERY, false, { getInitialValueInEffect: false });
  const [picked, setExam] = useState<string | null>(null);
  const apiRef = useRef<GridApi<FlatMarkRow> | null>(null);
  const [picked1, setPicked1] = useState<FlatMarkRow | null>(null);
  const [printing, setPrinting] = useState<'sheet' | 'card' | null>(null);

  const exams = useQuery({
    queryKey: ['marks-exams'],
    staleTime: 60_000,
    queryFn: ({ signal }) => http.get<ExamChoice[]>('/api/student_mark/exams', { signal }),
  });
  // Until the user picks one, the latest exam that has ended is shown: what a class teacher opens the page for.
  const exam = picked ?? latestEnded(exams.data ?? [], today());
  const listQuery = useQuery({
    queryKey: ['mark-list', exam],
    enabled: !!exam,
    staleTime: 0,
    // A read with its filters in the body (spec section 8: no success toast for it).
    queryFn: ({ signal }) => http.post<MarkList>('/api/mark/list', { exm_cd: Number(exam) }, { signal }),
  });
  const list = listQuery.data;

  const absentText = t('marks.absent_short', { defaultValue: 'AB' });
  const columns = useMemo(() => (list ? markListColumns(list, (key, english) => t(key, { defaultValue: english })) : []), [list, t]);
  const rows = useMemo(() => (list ? flattenMarkList(list, absentText) : []), [list, absentText]);
  const columnDefs = useMemo<ColDef<FlatMarkRow>[]>(() => {
    if (!list) return [];
    const resultText = (v: unknown) => (typeof v === 'string' && v ? t(`marks.result.${v}`, { defaultValue: v }) : '');
    return columns.map((c) => {
      const subject = list.subjects.find((s) => subjectColumn(s.mrk_cd) === c.field);
      const def: ColDef<FlatMarkRow> = { colId: c.field, field: c.field, headerName: c.label, sortable: true, resizable: true, minWidth: 70 };
      if (NUMERIC.has(c.field) || subject) def.type = 'rightAligned';
      if (c.field === 'stud_fs_nm') def.pinned = isMobile ? undefined : 'left';
      if (c.field === 'percentage') def.valueFormatter = (p) => formatPercentage((p.value as string | null) ?? null);
      if (c.field === 'result') {
        def.valueFormatter = (p) => resultText(p.value);
        def.cellStyle = (p) => ({ color: p.value === 'Fail' ? 'var(--mantine-color-red-7)' : p.value === 'Pass' ? 'var(--mantine-color-green-8)' : 'inherit', fontWeight: 600 });
      }
      if (subject) {
        def.cellStyle = (p) => {
          const row = list.rows.find((r) => r.stud_cd === p.data?.stud_cd);
          return row && failedSubject(row, subject) ? { color: 'var(--mantine-color-red-7)' } : null;
        };
      }
      if (NUMERIC.has(c.field) || subject) def.comparator = (a, b) => sortValue(a) - sortValue(b);
      return def;
    });
  }, [list, columns, isMobile, t]);
  const resultText = (v: unknown) => (typeof v === 'string' && v ? t(`marks.result.${v}`, { defaultValue: v }) : '');

  /** The rows as shown: the grid's current sort order. */
  const shownRows = (): FlatMarkRow[] => {
    const api = apiRef.current;
    if (!api || api.isDestroyed()) return rows;
    const out: FlatMarkRow[] = [];
    api.forEachNodeAfterFilterAndSort((n) => n.data && out.push(n.data));
    return out;
  };
  const title = list ? examLabel(list.exam) : '';

  async function exportExcel() {
    if (!list) return;
    const shown = shownRows();
    try {
      const wb = await newWorkbook();
      const ws = wb.addWorksheet(title.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31) || 'Mark List', { views: [{ state: 'frozen', ySplit: 1 }] });
      ws.columns = columns.map((c) => ({ header: c.label, width: Math.min(40, Math.max(10, c.label.length + 4)) }));
      ws.getRow(1).font = { bold: true };
      // Marks, totals and percentages go in as numbers (Excel sums them); 'AB' and results stay text.
      ws.addRows(
        shown.map((r) =>
          columns.map((c) => {
            const v = r[c.field];
            if (c.field === 'result') return resultText(v);
            return typeof v === 'string' && /^\d+(\.\d+)?$/.test(v) ? Number(v) : (v ?? null);
          }),
        ),
      );
      await downloadWorkbook(wb, exportFileName(title || 'Mark List', new Date()));
      http.post('/api/action_history/export', { entity: 'student_mark', count: shown.length }, { silent: true }).catch(() => undefined);
    } catch (e) {
      toast.danger(e instanceof Error ? e.message : String(e));
    }
  }

  /** The server's PDF, printed from a hidden frame: never the app around the list (lib/print-pdf). */
  function printDocument(kind: 'sheet' | 'card', path: string) {
    setPrinting(kind);
    printPdf(path)
      .catch((e: unknown) => {
        // The client has shown the server's reason; anything else is a real fault.
        if (!(e instanceof HttpError)) throw e;
      })
      .finally(() => setPrinting(null));
  }
  const printSheet = () => exam && printDocument('sheet', `/api/mark/list/pdf?exm_cd=${encodeURIComponent(exam)}`);
  const printCard = () => {
    // The selected student of this list; the card covers all of their exams this year.
    const row = picked1 && rows.find((r) => r.stud_cd === picked1.stud_cd);
    if (!row) {
      toast.warning(t('marks.pick_student', { defaultValue: "Select a student's row for the report card." }));
      return;
    }
    printDocument('card', `/api/mark/report_card/${encodeURIComponent(String(row.stud_cd))}/pdf`);
  };

  const passed = list?.rows.filter((r) => r.result === 'Pass').length ?? 0;

  return (
    <Stack gap="md" data-testid="entity-list">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={1} size="h3">
          {t('page.exam.mark_list', { defaultValue: 'Mark List' })}
        </Title>
        <Group gap="xs">
          {can('create') && (
            <Button data-testid="btn-create" leftSection={<IconPencil size={16} />} onClick={() => navigate('/sms/exam/mark_list/create')}>
              {t('marks.enter_title', { defaultValue: 'Enter marks' })}
            </Button>
          )}
          {can('export') && (
            <Button variant="default" leftSection={<IconFileSpreadsheet size={16} />} disabled={!list || rows.length === 0} onClick={() => void exportExcel()}>
              {t('btn.export', { defaultValue: 'Export' })}
            </Button>
          )}
          <Button variant="default" leftSection={<IconPrinter size={16} />} disabled={!list || rows.length === 0} loading={printing === 'sheet'} onClick={printSheet} data-testid="btn-print">
            {t('marks.print', { defaultValue: 'Print' })}
          </Button>
          <Button variant="default" leftSection={<IconId size={16} />} disabled={!list || rows.length === 0} loading={printing === 'card'} onClick={printCard} data-testid="btn-report-card">
            {t('marks.report_card', { defaultValue: 'Report Card' })}
          </Button>
        </Group>
      </Group>

      <Paper withBorder radius="md" p="md">
        <Group align="flex-end" wrap="wrap" gap="md">
          <Select
            label={t('field.student_mark.exm_cd', { defaultValue: 'Exam' })}
            placeholder={t('marks.choose_exam', { defaultValue: 'Choose an exam' })}
            data={(exams.data ?? []).map((e) => ({ value: String(e.exm_cd), label: examLabel(e) }))}
            value={exam}
            onChange={setExam}
            searchable
            w={{ base: '100%', sm: 420 }}
            comboboxProps={{ withinPortal: true }}
          />
          {list && (
            <Group gap={6} aria-live="polite">
              <Badge variant="light" size="lg">
                {t('marks.students', { defaultValue: 'Students: {{n}}', n: list.rows.length })}
              </Badge>
              <Badge color="green" variant="light" size="lg">
                {t('marks.result.Pass', { defaultValue: 'Pass' })}: {passed}
              </Badge>
            </Group>
          )}
        </Group>
      </Paper>

      {exams.isSuccess && exams.data.length === 0 && (
        <Alert color="yellow" icon={<IconInfoCircle size={18} />}>
          {t('marks.no_exams', { defaultValue: 'No exam is scheduled for your sections this year.' })}
        </Alert>
      )}
      {listQuery.isError && <Alert color="red">{listQuery.error instanceof Error ? listQuery.error.message : ''}</Alert>}
      {!exam && exams.isSuccess && exams.data.length > 0 && (
        <Text c="dimmed">{t('marks.choose_first', { defaultValue: 'Choose an exam to see its mark list.' })}</Text>
      )}
      {list && (
        <Box h={isMobile ? 'calc(100vh - 300px)' : 'calc(100vh - 260px)'} mih={320} data-testid="entity-grid">
          <AgGridReact<FlatMarkRow>
            theme={gridTheme}
            rowData={rows}
            columnDefs={columnDefs}
            getRowId={(p) => String(p.data.stud_cd)}
            rowHeight={25}
            headerHeight={30}
            localeText={gridLocaleText(t)}
            loading={listQuery.isFetching}
            rowSelection={{ mode: 'singleRow', checkboxes: false, enableClickSelection: true }}
            onSelectionChanged={(e) => setPicked1(e.api.getSelectedRows()[0] ?? null)}
            onGridReady={(e) => {
              apiRef.current = e.api;
              e.api.autoSizeAllColumns();
            }}
            onRowDataUpdated={(e) => e.api.autoSizeAllColumns()}
          />
        </Box>
      )}
    </Stack>
  );
}
