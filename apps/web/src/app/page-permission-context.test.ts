import { describe, expect, it } from 'vitest';
import { buildPagePermission, truthyFlag } from './page-permission-context';

describe('buildPagePermission', () => {
  const row = { usr_prms_is_alw: true, usr_prms_btns: 'create, edit,allow_login,,export', usr_need_data_chk: 1 };

  it('splits buttons and reads the data check', () => {
    const p = buildPagePermission('employee', 'profile', row, [], false);
    expect(p.buttons).toEqual(['create', 'edit', 'allow_login', 'export']);
    expect(p.dataChk).toBe(true);
    expect(p.can('create')).toBe(true);
    expect(p.can('delete')).toBe(false);
  });

  it('hides login buttons from non-admins only', () => {
    expect(buildPagePermission('employee', 'profile', row, [], false).can('allow_login')).toBe(false);
    expect(buildPagePermission('employee', 'profile', row, [], true).can('allow_login')).toBe(true);
  });

  it('grants nothing without a row', () => {
    const p = buildPagePermission('master', 'religion', undefined, [], true);
    expect(p.buttons).toEqual([]);
    expect(p.dataChk).toBe(false);
    expect(p.can('create')).toBe(false);
  });

  it('reads the flag forms a server may send', () => {
    expect([true, 1, '1', 'true'].every(truthyFlag)).toBe(true);
    expect([false, 0, '0', null, undefined, ''].some(truthyFlag)).toBe(false);
  });
});
