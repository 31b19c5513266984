import { describe, expect, it } from 'vitest';
import {
  buildSaveRows,
  emptyState,
  grantOf,
  groupByModule,
  normaliseCrudPages,
  normaliseRows,
  ownOnlyAll,
  saveUrl,
  setAllowed,
  setAllowedMany,
  setButtons,
  setOwnOnly,
  setOwnOnlyAll,
  stateFromRows,
  type CrudPage,
} from './permission-model';

const note = 'The rows of Religion belong to no particular student.';
const religion: CrudPage = { module: 'master', page: 'religion', label: 'Religion', path: 'sms/master/religion', buttons: ['create', 'edit', 'delete', 'export'], dataChk: false, dataChkNote: note };
const role: CrudPage = { module: 'master', page: 'role', label: 'Role', path: 'sms/master/role', buttons: ['create', 'edit'], dataChk: false };
const employee: CrudPage = { module: 'employee', page: 'profile', label: 'Employee Profile', path: 'sms/employee/profile', buttons: ['create', 'allow_login'], dataChk: true };
const pages = [religion, role, employee];

describe('normalising answers', () => {
  it('accepts rows, { rows } and nested arrays', () => {
    expect(normaliseRows([{ a: 1 }])).toEqual([{ a: 1 }]);
    expect(normaliseRows({ rows: [{ a: 1 }], total: 1 })).toEqual([{ a: 1 }]);
    expect(normaliseRows([[{ a: 1 }], []])).toEqual([{ a: 1 }]);
    expect(normaliseRows(null)).toEqual([]);
  });

  it('reads crud pages with buttons as a list or a comma string', () => {
    expect(normaliseCrudPages([{ module: 'master', page: 'role', label: 'Role', path: 'sms/master/role', buttons: 'create, edit', data_chk: false }])).toEqual([role]);
    expect(normaliseCrudPages([{ module: 'master', page: 'religion', label: 'Religion', buttons: ['create', 'edit', 'delete', 'export'], data_chk: false, data_chk_note: note }])).toEqual([religion]);
    expect(normaliseCrudPages([{ module: 'master', page: 'role' }])).toEqual([{ module: 'master', page: 'role', label: 'role', path: 'sms/master/role', buttons: [], dataChk: true }]);
    expect(normaliseCrudPages([{ nonsense: true }])).toEqual([]);
  });
});

describe('editing', () => {
  it('loads stored rows, dropping buttons a page no longer has', () => {
    const state = stateFromRows(
      [
        { usr_prms_mdl: 'master', usr_prms_page: 'religion', usr_prms_is_alw: 1, usr_prms_btns: 'create,edit,print', usr_prms_dscr: 'Office', usr_need_data_chk: true },
        { usr_prms_mdl: 'master', usr_prms_page: 'role', usr_prms_is_alw: false, usr_prms_btns: '' },
      ],
      pages,
    );
    expect(grantOf(state, 'master/religion')).toEqual({ allowed: true, buttons: ['create', 'edit'] });
    expect(grantOf(state, 'master/role')).toEqual({ allowed: false, buttons: [] });
    expect(state.description).toBe('Office');
    // Stored on a page it cannot narrow (it grants nothing there): shown, so it can be cleared.
    expect(state.ownOnly).toEqual({ 'master/religion': true });
    expect(state.existing.has('master/role')).toBe(true);
  });

  it('grants every button when a page is first allowed, and keeps a choice made before', () => {
    let s = setAllowed(emptyState(), religion, true);
    expect(grantOf(s, 'master/religion').buttons).toEqual(['create', 'edit', 'delete', 'export']);
    s = setButtons(s, religion, ['export', 'create']);
    expect(grantOf(s, 'master/religion').buttons).toEqual(['create', 'export']);
    s = setAllowed(s, religion, false);
    s = setAllowed(s, religion, true);
    expect(grantOf(s, 'master/religion').buttons).toEqual(['create', 'export']);
  });

  it('allows a page when a button is chosen', () => {
    const s = setButtons(emptyState(), role, ['edit']);
    expect(grantOf(s, 'master/role')).toEqual({ allowed: true, buttons: ['edit'] });
  });

  it("sets 'his students only' per page, never on a page it cannot narrow", () => {
    let s = setAllowedMany(emptyState(), pages, true);
    expect(setOwnOnly(s, religion, true)).toBe(s);
    s = setOwnOnly(s, employee, true);
    expect(s.ownOnly).toEqual({ 'employee/profile': true });
    expect(ownOnlyAll(s, pages)).toBe(true);
    s = setOwnOnlyAll(s, pages, false);
    expect(ownOnlyAll(s, pages)).toBe(false);
    s = setOwnOnlyAll(s, pages, true);
    expect(s.ownOnly).toEqual({ 'employee/profile': true });
    // A stale tick on a page that refuses the flag can be cleared.
    const stale = { ...s, ownOnly: { ...s.ownOnly, 'master/religion': true } };
    expect(setOwnOnly(stale, religion, false).ownOnly['master/religion']).toBe(false);
  });

  it('toggles a whole module', () => {
    const s = setAllowedMany(emptyState(), [religion, role], true);
    expect(grantOf(s, 'master/role').allowed).toBe(true);
    expect(grantOf(s, 'employee/profile').allowed).toBe(false);
  });
});

describe('saving', () => {
  it('sends allowed pages and revoked ones, for a user', () => {
    let s = stateFromRows([{ usr_prms_mdl: 'master', usr_prms_page: 'role', usr_prms_is_alw: true, usr_prms_btns: 'create' }], pages);
    s = setAllowed(s, role, false);
    s = setButtons(s, religion, ['edit']);
    s = { ...s, description: '  Clerk access ' };
    expect(buildSaveRows({ kind: 'user', usr_cd: 9 }, s, pages)).toEqual([
      {
        usr_prms_usr_cd: 9,
        usr_prms_mdl: 'master',
        usr_prms_page: 'religion',
        usr_prms_pth_url: 'sms/master/religion',
        usr_prms_is_alw: true,
        usr_prms_btns: 'edit',
        usr_prms_dscr: 'Clerk access',
        usr_need_data_chk: false,
      },
      {
        usr_prms_usr_cd: 9,
        usr_prms_mdl: 'master',
        usr_prms_page: 'role',
        usr_prms_pth_url: 'sms/master/role',
        usr_prms_is_alw: false,
        usr_prms_btns: '',
        usr_prms_dscr: 'Clerk access',
        usr_need_data_chk: false,
      },
    ]);
  });

  it('names a group by upg_cd', () => {
    const rows = buildSaveRows({ kind: 'group', upg_cd: 4 }, setAllowed(emptyState(), role, true), pages);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ upg_cd: 4, usr_prms_btns: 'create,edit' });
    expect(rows[0]).not.toHaveProperty('usr_prms_usr_cd');
  });

  it('sends the data check per row, and in the URL when any row has it', () => {
    const s = setOwnOnly(setAllowedMany(emptyState(), pages, true), employee, true);
    const rows = buildSaveRows({ kind: 'user', usr_cd: 9 }, s, pages);
    expect(rows.map((r) => [r.usr_prms_page, r.usr_need_data_chk])).toEqual([
      ['religion', false],
      ['role', false],
      ['profile', true],
    ]);
    expect(saveUrl(rows)).toBe('/api/user_permission/?usrNeedDataChk=1');
    expect(saveUrl(rows.slice(0, 2))).toBe('/api/user_permission/?usrNeedDataChk=0');
  });

  it('groups pages by module in order', () => {
    expect(groupByModule(pages).map((g) => [g.module, g.pages.length])).toEqual([
      ['master', 2],
      ['employee', 1],
    ]);
  });
});
