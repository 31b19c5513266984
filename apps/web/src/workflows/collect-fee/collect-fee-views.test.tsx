import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { JSX } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildPagePermission, PagePermissionContext } from '../../app/page-permission-context';
import { setAcademicYear, signIn } from '../../lib/session-store';
import { adminUser } from '../../test-support/fixtures';
import { createTestI18n, jsonResponse, renderWithProviders, resetTestState, stubBrowser, stubFetch } from '../../test-support/render-app';
import { BillReceiptPage, CollectAcademicDuesPage, CollectFromStudentPage } from './collect-fee-views';
import { FeeReceipt, type Receipt } from './fee-receipt';

let calls: { url: string; headers: Record<string, string> }[];

beforeEach(() => {
  stubBrowser();
  signIn(adminUser);
  setAcademicYear({ acdm_cd: 9, label: '2026-27' });
  calls = [];
});
afterEach(resetTestState);

const dues = {
  student: { stud_cd: 41, stud_fs_nm: 'Anu', stud_adm_cd: 'A-41', cls_nm: 'VI', sec_nm: 'A' },
  promoted: false,
  lines: [{ kind: 'Fee', fee_cd: 5, fee_grp_cd: 2, fee_grp_nm: 'Term 1', fee_grp_fee_exp_dt: null, feetyp_nm: 'Tuition', amount: '1000.00', discount: '0.00', paid: '0.00', due: '1000.00' }],
  tenders: [{ tnd_typ_cd: 1, tnd_typ_nm: 'Cash', tnd_typ_fld_val: null }],
  wallet: null,
};

function serve(answers: Record<string, unknown>): void {
  stubFetch(async (url, init) => {
    calls.push({ url, headers: init.headers as Record<string, string> });
    const hit = Object.keys(answers).find((k) => url.startsWith(k));
    return hit ? jsonResponse(answers[hit]) : jsonResponse({ message: 'not found' }, 404);
  });
}

async function render(ui: JSX.Element, page: string, buttons: string) {
  const permission = buildPagePermission('fee', page, { usr_prms_is_alw: 1, usr_prms_btns: buttons }, [], false);
  return renderWithProviders(<PagePermissionContext.Provider value={permission}>{ui}</PagePermissionContext.Provider>, {
    route: `/sms/fee/${page}/*`,
    i18n: await createTestI18n(),
  });
}

describe('fee counter entry points', () => {
  it('opens the counter on the chosen student, without the search; no Save without the create button', async () => {
    serve({ '/api/fee_collection/student/41/dues': dues });
    const { router } = await render(<CollectFromStudentPage />, 'quick_fee_collection', 'view');
    await router.navigate('/sms/fee/quick_fee_collection/view/41');
    await waitFor(() => expect(screen.getByTestId('collect-chosen').textContent).toBe('Anu - A-41 - VI A'));
    expect(screen.queryByTestId('collect-student')).toBeNull();
    expect(screen.getByTestId('collect-dues')).toBeTruthy();
    expect(screen.queryByTestId('collect-save')).toBeNull();
    expect(screen.queryByTestId('collect-year')).toBeNull();
    expect(calls.every((c) => c.headers.acdm_cd === '9')).toBe(true);
  });

  it("collects an earlier year's dues under that year: every request names it and the screen says so", async () => {
    serve({
      '/api/academic_fee_collect/77': { acdm_fee_stud_cd: 77, acdm_fee_acdm_cd: 4, acdm_label: '2025-26', stud_fs_nm: 'Anu' },
      '/api/fee_collection/student/77/dues': dues,
    });
    const { router } = await render(<CollectAcademicDuesPage />, 'academic_fee_collect', 'view,create');
    await router.navigate('/sms/fee/academic_fee_collect/view/77');
    await waitFor(() => expect(screen.getByTestId('collect-year').textContent).toBe('Collecting dues of academic year 2025-26'));
    await waitFor(() => expect(screen.getByTestId('collect-save')).toBeTruthy());
    // The row is read in the year the list is of; the counter's requests in the row's year.
    expect(calls[0]).toMatchObject({ url: '/api/academic_fee_collect/77' });
    expect(calls[0].headers.acdm_cd).toBe('9');
    const counter = calls.filter((c) => c.url.startsWith('/api/fee_collection/'));
    expect(counter.length).toBeGreaterThan(0);
    expect(counter.every((c) => c.headers.acdm_cd === '4' && c.headers.acdm_year === '2025-26')).toBe(true);
  });

  it('takes an amount typed key by key in Pay Now', async () => {
    serve({ '/api/fee_collection/student/41/dues': dues });
    const { router } = await render(<CollectFromStudentPage />, 'quick_fee_collection', 'view,create');
    await router.navigate('/sms/fee/quick_fee_collection/view/41');
    const box = await screen.findByLabelText('Pay Now Tuition Term 1');
    // Each key is its own change event, as in a browser; the second one used to throw (currentTarget null).
    let typed = '';
    for (const ch of '4475.50') {
      typed += ch;
      fireEvent.change(box, { target: { value: typed } });
    }
    await waitFor(() => expect((box as HTMLInputElement).value).toBe('4475.50'));
    expect(screen.getByTestId('collect-total').textContent).toBe('Total: 4,475.50');
  });

  it('reprints a bill with what a receipt shows, marking a cancelled one, and prints the server PDF, not the page', async () => {
    const receipt = {
      bill: { fee_coll_cd: 300, fee_coll_bill_no: 12, fee_coll_amt: '4475.5', fee_coll_sts: 'Cancelled', stud_fs_nm: 'Anu', stud_adm_cd: 'A-41', fee_coll_crt_dt: '2026-06-10' },
      lines: [{ kind: 'Fee', fee_grp_nm: 'Term 1', feetyp_nm: 'Tuition', amount: '4475.50', discount: '0.00' }],
      institute: { inst_nm: 'Campus School', inst_adr1: '12, Gandhi Road', inst_adr2: 'Erode 638001', inst_ph: null, inst_eml: null },
      student: { stud_fs_nm: 'Anu', stud_adm_cd: 'A-41', stud_fthr_nm: 'Murugan', cls_nm: 'VI', sec_nm: 'A' },
      academic_year: '2026-27',
      tender: { tnd_typ_nm: 'Cheque', reference_label: 'Cheque No.', reference: '004512' },
      cashier: 'Latha R',
      amount_in_words: 'Rupees Four Thousand Four Hundred Seventy Five and Fifty Paise Only',
      balance_due: '1250',
      cancellation: { date: '2026-06-11', by: 'Administrator', reason: 'Paid twice' },
    };
    serve({ '/api/fee_collection/bill/300/pdf': { pdf: true }, '/api/fee_collection/bill/300': receipt });
    const pagePrint = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    URL.createObjectURL = vi.fn(() => 'blob:receipt');
    URL.revokeObjectURL = vi.fn();
    const { router } = await render(<BillReceiptPage />, 'fee_collected', 'view');
    await router.navigate('/sms/fee/fee_collected/view/300');
    await waitFor(() => expect(screen.getByTestId('receipt-total').textContent).toBe('4,475.50'));
    expect(screen.getByTestId('receipt-cancelled').textContent).toBe('CANCELLED');
    expect(screen.getByTestId('receipt-father').textContent).toBe('Murugan');
    expect(screen.getByTestId('receipt-class').textContent).toBe('VI - A');
    expect(screen.getByTestId('receipt-words').textContent).toBe(receipt.amount_in_words);
    // A cancelled bill settled nothing: no balance 'after' it.
    expect(screen.queryByTestId('receipt-balance')).toBeNull();
    expect(screen.getByTestId('receipt-cashier').textContent).toBe('Latha R');
    expect(screen.getByTestId('receipt-institute-address').textContent).toBe('12, Gandhi Road, Erode 638001');
    expect(screen.getByText('Cheque, Cheque No.: 004512')).toBeTruthy();
    expect(screen.getByTestId('receipt-cancellation').textContent).toContain('Paid twice');

    fireEvent.click(screen.getByTestId('receipt-print'));
    await waitFor(() => expect(document.querySelector('iframe#campus-print-frame')?.getAttribute('src')).toBe('blob:receipt'));
    const pdfCall = calls.find((c) => c.url.startsWith('/api/fee_collection/bill/300/pdf'));
    expect(pdfCall?.url).toMatch(/[?&]lang=english/);
    expect(pdfCall?.url).toMatch(/[?&]size=A5/);
    expect(pagePrint).not.toHaveBeenCalled();
  });

  it("prints an earlier year's bill in that year: the PDF request carries the screen's year headers", async () => {
    const receipt: Receipt = {
      bill: { fee_coll_cd: 501, fee_coll_bill_no: 3, fee_coll_amt: '100.00', fee_coll_sts: 'Active', fee_coll_crt_dt: '2025-12-01' },
      lines: [{ kind: 'Fee', fee_grp_nm: 'Term 3', feetyp_nm: 'Tuition', amount: '100.00', discount: '0.00' }],
      institute: { inst_nm: 'Campus School', inst_adr1: null, inst_adr2: null, inst_ph: null, inst_eml: null },
      student: { stud_fs_nm: 'Anu', stud_adm_cd: 'A-41', stud_fthr_nm: null, cls_nm: 'V', sec_nm: 'A' },
      academic_year: '2025-26',
      tender: { tnd_typ_nm: 'Cash', reference_label: null, reference: null },
      cashier: 'Latha R',
      amount_in_words: 'Rupees One Hundred Only',
      balance_due: '0.00',
      cancellation: null,
    };
    serve({ '/api/fee_collection/bill/501/pdf': { pdf: true } });
    URL.createObjectURL = vi.fn(() => 'blob:old-year');
    URL.revokeObjectURL = vi.fn();
    const { router } = await render(
      <FeeReceipt receipt={receipt} requestHeaders={{ acdm_cd: '4', acdm_year: '2025-26' }} />,
      'academic_fee_collect',
      'view,create',
    );
    await router.navigate('/sms/fee/academic_fee_collect/view/77');
    fireEvent.click(await screen.findByTestId('receipt-print'));
    await waitFor(() => expect(calls.some((c) => c.url.startsWith('/api/fee_collection/bill/501/pdf'))).toBe(true));
    const pdfCall = calls.find((c) => c.url.startsWith('/api/fee_collection/bill/501/pdf'))!;
    expect(pdfCall.headers).toMatchObject({ acdm_cd: '4', acdm_year: '2025-26' });
    document.getElementById('campus-print-frame')?.remove();
  });
});
