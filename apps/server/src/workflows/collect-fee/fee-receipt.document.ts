import type { Content, ContentText, TableCell } from 'pdfmake/interfaces';
import { letterhead, printDate, printMoney, printTime, renderPdf, type PrintSetup } from '../../documents/pdf-render';
import { toPaise } from '../../lib/paise';
import type { Receipt } from './collect-fee.handler';

const money = printMoney;

/**
 * The fee receipt as paper: A5 by default (half a sheet, what a counter hands over), A4 on request. Everything
 * on it comes from billReceipt, the same data the on-screen receipt shows, so the two cannot disagree.
 */
export async function feeReceiptPdf(r: Receipt, setup: PrintSetup, printedBy: string, now: { date: string; time: string }): Promise<Buffer> {
  const { size, lang, inst, t } = setup;
  const b = r.bill;
  const cancelled = b.fee_coll_sts === 'Cancelled';
  const small = size === 'A5';
  const withDiscount = r.lines.some((l) => toPaise(l.discount) > 0);
  const classSection = [r.student.cls_nm, r.student.sec_nm].filter(Boolean).join(' - ');

  const field = (label: string, value: string, bold = false): ContentText => ({
    text: [{ text: `${label}: `, style: 'label' }, { text: value, bold }],
  });
  const facts: Content = {
    table: {
      widths: ['*', '*'],
      body: [
        [field(t('receipt.bill_no'), String(b.fee_coll_bill_no), true), field(t('receipt.date'), `${printDate(String(b.fee_coll_crt_dt), lang)} ${printTime(String(b.fee_coll_crt_tm ?? ''))}`)],
        [field(t('receipt.student'), r.student.stud_fs_nm, true), field(t('receipt.admission_no'), r.student.stud_adm_cd)],
        [field(t('receipt.father'), r.student.stud_fthr_nm ?? ''), field(t('receipt.class_section'), classSection)],
        [field(t('receipt.academic_year'), r.academic_year), { text: '' }],
      ],
    },
    layout: 'noBorders',
    margin: [0, 0, 0, small ? 4 : 8],
  };

  const head: TableCell[] = [
    { text: t('receipt.sno'), style: 'th' },
    { text: t('receipt.particulars'), style: 'th' },
    ...(withDiscount ? [{ text: t('receipt.discount'), style: 'th', alignment: 'right' as const }] : []),
    { text: t('receipt.amount'), style: 'th', alignment: 'right' },
  ];
  const body: TableCell[][] = r.lines.map((l, i) => [
    String(i + 1),
    l.kind === 'Late Fee' ? `${t('receipt.late_fee')} (${l.fee_grp_nm})` : `${l.feetyp_nm ?? ''} (${l.fee_grp_nm})`,
    ...(withDiscount ? [{ text: money(l.discount), alignment: 'right' as const }] : []),
    { text: money(l.amount), alignment: 'right' },
  ]);
  const totalRow: TableCell[] = [
    { text: t('receipt.total'), style: 'total', colSpan: withDiscount ? 3 : 2 },
    '',
    ...(withDiscount ? [''] : []),
    { text: money(String(b.fee_coll_amt)), style: 'total', alignment: 'right' },
  ];
  const lines: Content = {
    table: { headerRows: 1, widths: [small ? 32 : 40, '*', ...(withDiscount ? [small ? 55 : 70] : []), small ? 65 : 85], body: [head, ...body, totalRow] },
    layout: 'lightHorizontalLines',
  };

  const tender = [r.tender.tnd_typ_nm ?? '', r.tender.reference ? `${r.tender.reference_label ?? t('receipt.reference')}: ${r.tender.reference}` : ''].filter(Boolean).join(', ');
  const content: Content[] = [
    letterhead(inst, t('receipt.title'), t, size),
    facts,
    lines,
    { ...field(t('receipt.in_words'), r.amount_in_words), margin: [0, small ? 6 : 10, 0, 2] },
    // A cancelled bill settled nothing: a balance 'after' it would only mislead.
    ...(cancelled ? [] : [field(t('receipt.balance'), money(r.balance_due), true)]),
    field(t('receipt.tender'), tender),
  ];
  if (cancelled && r.cancellation) {
    content.push({
      text: t('receipt.cancelled_by', { date: printDate(r.cancellation.date, lang), user: r.cancellation.by, reason: r.cancellation.reason }),
      color: '#c62828',
      bold: true,
      margin: [0, 6, 0, 0],
    });
  }
  // The cashier's name on the left; on the right a line to sign on, the way a counter receipt is signed.
  content.push({
    columns: [
      { ...field(t('receipt.cashier'), r.cashier), width: '*', margin: [0, 14, 0, 0] },
      {
        width: 130,
        stack: [
          { canvas: [{ type: 'line', x1: 0, y1: 12, x2: 130, y2: 12, lineWidth: 0.5 }] },
          { text: t('receipt.signature'), alignment: 'center', style: 'label', margin: [0, 2, 0, 0] },
        ],
      },
    ],
    margin: [0, small ? 18 : 30, 0, 0],
  });

  return renderPdf({
    size,
    title: `${t('receipt.title')} ${String(b.fee_coll_bill_no)}`,
    author: inst.inst_nm,
    t,
    cancelled,
    footer: t('printed_by', { date: printDate(now.date, lang), time: printTime(now.time), user: printedBy }),
    content,
  });
}
