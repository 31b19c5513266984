import { entity } from '@campus/entities/registry';
import { describe, expect, it } from 'vitest';
import { relatedListPath, urlFilters } from './related-lists';

describe('related lists', () => {
  it("open the wallet's statement: its movements' page filtered to the selected wallet", () => {
    const wallet = entity('wallet');
    const [statement] = wallet.related ?? [];
    expect(relatedListPath(wallet, statement, { wlt_cd: 12 })).toBe('/sms/student/wallet_transaction/table?f_wlt_cd=12');
    expect(relatedListPath(wallet, statement, {})).toBeNull();
  });

  it('take only declared link, select and code fields from the URL as filters', () => {
    const txn = entity('wallet_transaction');
    const params = new URLSearchParams('f_wlt_cd=12&f_wlt_txn_typ=Spend&f_wlt_txn_rsn=x&f_nope=1&f_stud_cd=&q=a');
    expect(urlFilters(txn, params)).toEqual({ wlt_cd: '12', wlt_txn_typ: 'Spend' });
  });
});
