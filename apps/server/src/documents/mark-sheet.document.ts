import type { Content, TableCell } from 'pdfmake/interfaces';
import type { MarkList, MarkListRow } from '../workflows/mark-list/mark-list.handler';
import { printMarks, signatures } from './exam-print';
import { letterhead, printDate, type Orientation, type PdfDocument, type PrintSetup } from './pdf-render';

/**
 * The mark sheet of one exam for one class-section (GET /api/mark/list/pdf?exm_cd=): the mark list screen's
 * rows on paper, in the same order (roll number), with the same figures the server computed for the screen:
 * marks as written (45.5), total, percentage with two decimals, result and rank; a column per subject with
 * its maximum, 'AB' for absent; a summary line and the signatures a class result sheet carries.
 */
export function markSheetDocument(list: MarkList, setup: PrintSetup, yearLabel: string, footer: string): PdfDocument {
  const { t, size, lang, inst } = setup;
  const small = size === 'A5';
  const { exam, subjects } = list;
  // A column per subject: beyond four the sheet turns sideways, so names and admission numbers stay on one
  // line and a section of 30-40 fits a page or two.
  const orientation: Orientation = subjects.length > 4 ? 'landscape' : 'portrait';
  const result = (r: MarkListRow['result']): string => (r ? t(`marks.result.${r}`) : '');
  const head: TableCell[] = [
    t('marks.roll'),
    t('marks.student'),
    t('marks.admission_no'),
    ...subjects.map((s) => `${s.sub_nm}\n(${s.mrk_max_mrk})`),
    `${t('marks.total')}\n(${list.rows[0]?.max_total ?? subjects.reduce((a, s) => a + s.mrk_max_mrk, 0)})`,
    t('marks.percentage'),
    t('marks.result_col'),
    t('marks.rank'),
  ].map((text) => ({ text, style: 'th', alignment: 'center' as const }));
  const body: TableCell[][] = list.rows.map((r) => [
    { text: r.stud_roll_nmb === null ? '' : String(r.stud_roll_nmb), alignment: 'right' },
    r.stud_fs_nm,
    { text: r.stud_adm_cd, noWrap: true },
    ...subjects.map((s): TableCell => {
      const m = r.marks[String(s.mrk_cd)];
      const text = !m ? '' : m.absent ? t('marks.absent_short') : printMarks(m.marks);
      const failed = !!m && (m.absent || Number(m.marks) < s.mrk_min_mrk);
      // A failed subject is underlined as well as bold: a grey photocopy loses colour, not the line.
      return { text, alignment: 'right', bold: failed, decoration: failed ? 'underline' : undefined };
    }),
    { text: printMarks(r.total), alignment: 'right', bold: true },
    { text: r.percentage === null ? '' : `${r.percentage} %`, alignment: 'right' },
    { text: result(r.result), alignment: 'center', bold: r.result === 'Fail' },
    { text: r.rank === null ? '' : String(r.rank), alignment: 'center' },
  ]);
  const passed = list.rows.filter((r) => r.result === 'Pass').length;
  const failed = list.rows.filter((r) => r.result === 'Fail').length;
  const pending = list.rows.filter((r) => r.result === 'Incomplete').length;
  const fixed = [24, '*', 'auto', ...subjects.map(() => 'auto' as const), 'auto', 'auto', 'auto', 26];
  const content: Content[] = [
    letterhead(inst, t('marks.sheet_title'), t, size, orientation),
    {
      columns: [
        { text: [{ text: `${t('marks.exam')}: `, style: 'label' }, { text: exam.exm_nm, bold: true }] },
        { text: [{ text: `${t('marks.class_section')}: `, style: 'label' }, { text: `${exam.cls_nm} - ${exam.sec_nm}`, bold: true }], alignment: 'center' },
        { text: [{ text: `${t('marks.academic_year')}: `, style: 'label' }, { text: yearLabel, bold: true }], alignment: 'right' },
      ],
      margin: [0, 0, 0, 2],
    },
    { text: [{ text: `${t('marks.exam_dates')}: `, style: 'label' }, `${printDate(exam.exm_strt_dt, lang)} - ${printDate(exam.exm_end_dt, lang)}`], margin: [0, 0, 0, 6] },
    list.rows.length === 0
      ? { text: t('marks.no_students'), italics: true, margin: [0, 12, 0, 12] }
      : {
          table: { headerRows: 1, widths: fixed, body: [head, ...body], dontBreakRows: true },
          layout: { hLineWidth: () => 0.5, vLineWidth: () => 0.5, hLineColor: () => '#888888', vLineColor: () => '#888888', paddingLeft: () => 3, paddingRight: () => 3, paddingTop: () => 1.5, paddingBottom: () => 1.5 },
          fontSize: small || subjects.length > 8 ? 7 : 8,
        },
    {
      text: t('marks.summary', { students: list.rows.length, passed, failed, pending }),
      margin: [0, 8, 0, 0],
    },
    { text: t('marks.fail_note'), fontSize: 7, color: '#555555', margin: [0, 2, 0, 0] },
    signatures([t('marks.class_teacher'), t('marks.principal')], small),
  ];
  return { size, orientation, title: `${t('marks.sheet_title')} - ${exam.exm_nm} - ${exam.cls_nm} ${exam.sec_nm}`, author: inst.inst_nm, content, footer, t };
}
