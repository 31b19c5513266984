import { screen, waitFor } from '@testing-library/react';
import type { JSX } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildPagePermission, PagePermissionContext } from '../../app/page-permission-context';
import { setAcademicYear, signIn } from '../../lib/session-store';
import { adminUser } from '../../test-support/fixtures';
import { createTestI18n, jsonResponse, renderWithProviders, resetTestState, stubBrowser, stubFetch } from '../../test-support/render-app';
import { BillReceiptPage, CollectAcademicDuesPage, CollectFromStudentPage } from './collect-fee-views';

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

  it('reprints a bill, marking a cancelled one', async () => {
    const receipt = {
      bill: { fee_coll_bill_no: 12, fee_coll_amt: '1000.00', fee_coll_sts: 'Cancelled', stud_fs_nm: 'Anu', stud_adm_cd: 'A-41', fee_coll_crt_dt: '2026-06-10' },
      lines: [{ kind: 'Fee', fee_grp_nm: 'Term 1', feetyp_nm: 'Tuition', amount: '1000.00' }],
      institute: { inst_nm: 'Campus School', inst_adr1: null, inst_adr2: null, inst_ph: null },
    };
    serve({ '/api/fee_collection/bill/300': receipt });
    const { router } = await render(<BillReceiptPage />, 'fee_collected', 'view');
    await router.navigate('/sms/fee/fee_collected/view/300');
    await waitFor(() => expect(screen.getByTestId('receipt-total').textContent).toBe('1000.00'));
    expect(screen.getByTestId('receipt-cancelled').textContent).toBe('CANCELLED');
    expect(screen.getByTestId('receipt-print')).toBeTruthy();
  });
});
