import type { Content, TableCell } from 'pdfmake/interfaces';
import type { ReportCard } from '../workflows/mark-list/report-card.service';
import { printMarks, signatures } from './exam-print';
import { letterhead, type PdfDocument, type PrintSetup } from './pdf-render';

/**
 * A student's report card across the year's exams (GET /api/mark/report_card/{stud_cd}/pdf): the student's
 * particulars, then one table with a row per subject and a column per exam (marks out of the maximum, 'AB'
 * when absent, a dash where the subject was not in that exam), and under it each exam's total, percentage,
 * result and rank: the figures of that exam's mark list. Usually A5, the size of a report card booklet page.
 */
export function reportCardDocument(card: ReportCard, setup: PrintSetup, yearLabel: string, footer: string): PdfDocument {
  const { t, size, inst } = setup;
  const small = size === 'A5';
  const { student, exams } = card;
  // Subjects in the order the exams list them (subject code), each once.
  const subjects = new Map<number, string>();
  for (const e of exams) for (const s of e.subjects) if (!subjects.has(s.sub_cd)) subjects.set(s.sub_cd, s.sub_nm);

  const cell = (text: string, extra: Partial<{ bold: boolean; alignment: 'left' | 'right' | 'center'; decoration: 'underline' }> = {}): TableCell => ({ text, alignment: 'center', ...extra });
  const head: TableCell[] = [
    { text: t('marks.subject'), style: 'th' },
    ...exams.map((e) => ({ text: e.exam.exm_nm, style: 'th', alignment: 'center' as const })),
  ];
  const subjectRows: TableCell[][] = [...subjects].map(([subCd, name]) => [
    name,
    ...exams.map((e) => {
      const s = e.subjects.find((x) => x.sub_cd === subCd);
      if (!s) return cell('-');
      const m = e.row?.marks[String(s.mrk_cd)];
      if (!m) return cell(`/ ${s.mrk_max_mrk}`);
      const failed = m.absent || Number(m.marks) < s.mrk_min_mrk;
      return cell(`${m.absent ? t('marks.absent_short') : printMarks(m.marks)} / ${s.mrk_max_mrk}`, failed ? { bold: true, decoration: 'underline' } : {});
    }),
  ]);
  const footRow = (label: string, value: (e: ReportCard['exams'][number]) => string): TableCell[] => [
    { text: label, bold: true },
    ...exams.map((e) => cell(e.row ? value(e) : '', { bold: true })),
  ];
  const table: TableCell[][] = [
    head,
    ...subjectRows,
    footRow(t('marks.total'), (e) => `${printMarks(e.row?.total)} / ${e.row?.max_total ?? ''}`),
    footRow(t('marks.percentage'), (e) => (e.row?.percentage ? `${e.row.percentage} %` : '')),
    footRow(t('marks.result_col'), (e) => (e.row?.result ? t(`marks.result.${e.row.result}`) : '')),
    footRow(t('marks.rank'), (e) => (e.row?.rank ? String(e.row.rank) : '')),
  ];
  const particular = (label: string, value: string): Content => ({ text: [{ text: `${label}: `, style: 'label' }, { text: value, bold: true }], margin: [0, 0, 0, 2] });
  const content: Content[] = [
    letterhead(inst, `${t('marks.card_title')} ${yearLabel}`, t, size),
    {
      columns: [
        { stack: [particular(t('marks.student'), student.stud_fs_nm), particular(t('marks.father'), student.stud_fthr_nm ?? '')] },
        {
          stack: [
            particular(t('marks.admission_no'), student.stud_adm_cd),
            particular(t('marks.class_section'), `${student.cls_nm} - ${student.sec_nm}`),
            particular(t('marks.roll'), student.stud_roll_nmb === null ? '' : String(student.stud_roll_nmb)),
          ],
        },
      ],
      margin: [0, 0, 0, 8],
    },
    exams.length === 0
      ? { text: t('marks.no_exams'), italics: true, margin: [0, 12, 0, 12] }
      : {
          table: { headerRows: 1, widths: ['*', ...exams.map(() => (exams.length > 4 ? 'auto' : 70))], body: table, dontBreakRows: true },
          layout: { hLineWidth: () => 0.5, vLineWidth: () => 0.5, hLineColor: () => '#888888', vLineColor: () => '#888888', paddingTop: () => 2, paddingBottom: () => 2 },
          fontSize: small ? 8 : 9.5,
        },
    { text: t('marks.fail_note'), fontSize: 7, color: '#555555', margin: [0, 3, 0, 0] },
    signatures([t('marks.class_teacher'), t('marks.principal'), t('marks.parent')], small),
  ];
  return { size, title: `${t('marks.card_title')} - ${student.stud_fs_nm} - ${yearLabel}`, author: inst.inst_nm, content, footer, t };
}
