import { describe, expect, it } from 'vitest';
import { layoutFor, parseSavedLayout } from './column-layout';

describe('saved column layout', () => {
  it('reads arrays and JSON strings, dropping sort', () => {
    const state = [{ colId: 'rgn_nm', width: 180, hide: false, sort: 'asc', sortIndex: 0 }, { colId: 'rgn_cd', hide: true }];
    expect(parseSavedLayout(state)).toEqual([{ colId: 'rgn_nm', width: 180, hide: false }, { colId: 'rgn_cd', hide: true }]);
    expect(parseSavedLayout(JSON.stringify(state))).toEqual(parseSavedLayout(state));
  });

  it('ignores anything that is not column state', () => {
    expect(parseSavedLayout(null)).toBeNull();
    expect(parseSavedLayout('{oops')).toBeNull();
    expect(parseSavedLayout({ colId: 'x' })).toBeNull();
    expect(parseSavedLayout([{ width: 3 }])).toBeNull();
  });

  it('picks the layout of the named table', () => {
    const settings = [
      { tbl_setg_tbl_nm: 'role', tbl_setg_obj: [{ colId: 'rl_nm' }] },
      { tbl_setg_tbl_nm: 'religion', tbl_setg_obj: [{ colId: 'rgn_nm', width: 200 }] },
    ];
    expect(layoutFor(settings, 'religion')).toEqual([{ colId: 'rgn_nm', width: 200 }]);
    expect(layoutFor(settings, 'community')).toBeNull();
  });
});
