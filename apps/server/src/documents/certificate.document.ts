import type { CertificateKind } from '@campus/entities/student/certificate.entity';
import type { Content, TableCell } from 'pdfmake/interfaces';
import type { RequestContext } from '../access/request-context';
import { rows, sql, type Db } from '../db/client';
import type { Row } from '../engine/entity-hooks';
import { notFound } from '../lib/http-error';
import { academicYearLabel, printedBy, signatures } from './exam-print';
import { letterhead, printDate, printSetup, renderPdf, type PdfDocument, type PrintSetup } from './pdf-render';

/** What the certificate says about the student: their row of the certificate's year, names joined. */
export interface CertificateStudent {
  stud_fs_nm: string;
  stud_nm_ntv_lang: string | null;
  stud_adm_cd: string;
  stud_fthr_nm: string | null;
  stud_mthr_nm: string | null;
  stud_gnd: string | null;
  stud_dob: string | null;
  stud_doj: string | null;
  medium: string | null;
  cls_nm: string;
  sec_nm: string;
  rgn_nm: string | null;
  cmty_nm: string | null;
}

export interface CertificateData {
  cert_fct_nmb: number | null;
  cert_fct_typ: CertificateKind;
  cert_fct_crt_dt: string | null;
  cert_fct_prps: string | null;
  cert_fct_lvng_dt: string | null;
  cert_fct_lvng_rsn: string | null;
  cert_fct_cndct: string | null;
  cert_fct_rmks: string | null;
  usr_nm: string | null;
  student: CertificateStudent;
  yearLabel: string;
}

/** The label key of each kind under print.certificate. */
const KIND_KEY: Record<CertificateKind, string> = { Bonafide: 'bonafide', Conduct: 'conduct', 'Transfer Certificate': 'transfer' };

/**
 * A certificate on the institute's letterhead (GET /api/certificate/{cert_fct_cd}/pdf, A4 by default): its
 * kind as the title, its number and date, then the kind's wording: a bonafide or conduct certificate as
 * one paragraph about the student, a transfer certificate as the numbered particulars of a TC register
 * (what the student's row holds: the record has no date of birth, so none is printed). Signed by the
 * head of the institution.
 */
export function certificateDocument(c: CertificateData, setup: PrintSetup, footer: string): PdfDocument {
  const { t, size, lang, inst } = setup;
  const small = size === 'A5';
  const s = c.student;
  const key = KIND_KEY[c.cert_fct_typ] ?? 'bonafide';
  const title = t(`certificate.${key}.title`);
  const klass = `${s.cls_nm} - ${s.sec_nm}`;
  const opt = (field: string, v: string | null): string => (v ? t(`certificate.option.${field}.${v.replace(/\s+/g, '_')}`) : '');
  const vars = { name: s.stud_fs_nm, father: s.stud_fthr_nm ?? '-', adm: s.stud_adm_cd, class: klass, year: c.yearLabel, conduct: opt('conduct', c.cert_fct_cndct) };
  const head: Content = {
    columns: [
      { text: [{ text: `${t('certificate.number')}: `, style: 'label' }, { text: c.cert_fct_nmb === null ? '' : String(c.cert_fct_nmb), bold: true }] },
      { text: [{ text: `${t('certificate.date')}: `, style: 'label' }, { text: printDate(c.cert_fct_crt_dt, lang), bold: true }], alignment: 'right' },
    ],
    margin: [0, 0, 0, small ? 10 : 18],
  };
  const para = (text: string): Content => ({ text, alignment: 'justify', lineHeight: 1.5, margin: [0, 0, 0, 10], fontSize: small ? 9.5 : 11.5 });
  const body: Content[] = [];
  if (key === 'transfer') {
    const particulars: [string, string][] = [
      [t('certificate.tc.name'), s.stud_fs_nm],
      ...(s.stud_nm_ntv_lang ? ([[t('certificate.tc.native_name'), s.stud_nm_ntv_lang]] as [string, string][]) : []),
      [t('certificate.tc.father'), s.stud_fthr_nm ?? ''],
      [t('certificate.tc.mother'), s.stud_mthr_nm ?? ''],
      [t('certificate.tc.gender'), opt('gender', s.stud_gnd)],
      [t('certificate.tc.dob'), printDate(s.stud_dob, lang)],
      [t('certificate.tc.religion_community'), [s.rgn_nm, s.cmty_nm].filter(Boolean).join(' / ')],
      [t('certificate.tc.admission_no'), s.stud_adm_cd],
      [t('certificate.tc.joined'), printDate(s.stud_doj, lang)],
      [t('certificate.tc.class'), klass],
      [t('certificate.tc.year'), c.yearLabel],
      [t('certificate.tc.medium'), s.medium ?? ''],
      [t('certificate.tc.leaving_date'), printDate(c.cert_fct_lvng_dt, lang)],
      [t('certificate.tc.reason'), c.cert_fct_lvng_rsn ?? ''],
      [t('certificate.tc.conduct'), opt('conduct', c.cert_fct_cndct)],
      [t('certificate.tc.remarks'), c.cert_fct_rmks ?? ''],
    ];
    const tableBody: TableCell[][] = particulars.map(([label, value], i) => [{ text: `${i + 1}.`, alignment: 'right' }, label, { text: value || '-', bold: true }]);
    body.push({
      table: { widths: [18, small ? 150 : 210, '*'], body: tableBody, dontBreakRows: true },
      layout: { hLineWidth: () => 0.4, vLineWidth: () => 0, hLineColor: () => '#bbbbbb', paddingTop: () => small ? 2.5 : 4, paddingBottom: () => small ? 2.5 : 4 },
      fontSize: small ? 8.5 : 10.5,
    });
    body.push({ text: t('certificate.transfer.closing'), margin: [0, 12, 0, 0], italics: true });
  } else {
    body.push(para(t(`certificate.${key}.body`, vars)));
    if (key === 'bonafide' && c.cert_fct_prps) body.push(para(t('certificate.bonafide.purpose', { purpose: c.cert_fct_prps })));
    if (c.cert_fct_rmks) body.push(para(`${t('certificate.tc.remarks')}: ${c.cert_fct_rmks}`));
  }
  const content: Content[] = [
    letterhead(inst, title, t, size),
    head,
    ...body,
    signatures([`${t('certificate.prepared_by')}${c.usr_nm ? `: ${c.usr_nm}` : ''}`, t('certificate.head')], small),
  ];
  return { size, title: `${title} - ${c.cert_fct_nmb ?? ''} - ${s.stud_fs_nm}`, author: inst.inst_nm, content, footer, t };
}

/** The certificate row's student (its own year's row) and its year's label, for the document. */
export async function certificateData(db: Db, row: Row, acdmCd: number | null): Promise<CertificateData> {
  const [student] = await rows<CertificateStudent>(
    db,
    sql`SELECT s.stud_fs_nm, s.stud_nm_ntv_lang, s.stud_adm_cd, s.stud_fthr_nm, s.stud_mthr_nm, s.stud_gnd, s.stud_dob::text AS stud_dob, s.stud_doj::text AS stud_doj,
               s.medium, c.cls_nm, x.sec_nm, r.rgn_nm, m.cmty_nm
        FROM student s JOIN class c ON c.cls_cd = s.cls_cd JOIN section x ON x.sec_cd = s.sec_cd
        LEFT JOIN religion r ON r.rgn_cd = s.rgn_cd LEFT JOIN community m ON m.cmty_cd = s.cmty_cd
        WHERE s.stud_cd = ${Number(row.stud_cd)}`,
  );
  if (!student) throw notFound('The student of this certificate was not found.');
  // Who issued it by their name ('Latha R'), not their login id ('ADMIN') that the row stamps.
  const [issuer] = await rows<{ usr_full_nm: string }>(
    db,
    sql`SELECT e.usr_full_nm FROM certificate c JOIN employee e ON e.usr_cd = c.crt_by WHERE c.cert_fct_cd = ${Number(row.cert_fct_cd)}`,
  );
  const text = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v));
  return {
    cert_fct_nmb: row.cert_fct_nmb === null || row.cert_fct_nmb === undefined ? null : Number(row.cert_fct_nmb),
    cert_fct_typ: String(row.cert_fct_typ) as CertificateKind,
    cert_fct_crt_dt: text(row.cert_fct_crt_dt),
    cert_fct_prps: text(row.cert_fct_prps),
    cert_fct_lvng_dt: text(row.cert_fct_lvng_dt),
    cert_fct_lvng_rsn: text(row.cert_fct_lvng_rsn),
    cert_fct_cndct: text(row.cert_fct_cndct),
    cert_fct_rmks: text(row.cert_fct_rmks),
    usr_nm: issuer?.usr_full_nm ?? text(row.usr_nm),
    student,
    yearLabel: await academicYearLabel(db, acdmCd),
  };
}

/** The renderer the engine's document route calls for the certificate page's 'print' button. */
export async function renderCertificate(db: Db, ctx: RequestContext, row: Row, query: unknown): Promise<{ pdf: Buffer; fileName: string }> {
  const setup = await printSetup(db, ctx.instCd, query, 'A4');
  // The row was read in the request's year (the engine's get scopes by it): the certificate's year.
  const data = await certificateData(db, row, ctx.acdmCd);
  const pdf = await renderPdf(certificateDocument(data, setup, printedBy(setup, ctx)));
  return { pdf, fileName: `certificate-${data.cert_fct_nmb ?? row.cert_fct_cd}.pdf` };
}
