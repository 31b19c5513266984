import type { FastifyInstance } from 'fastify';
import { dataChkApplies } from '@campus/entities/data-chk';
import { findPage } from '@campus/entities/pages';
import { expect } from 'vitest';
import { call, login, type Session } from './test-server';

type Row = Record<string, unknown>;

export const STAFF_PASSWORD = 'Staff-Pass-2026';

/** One page a staff account is given: 'module/page' and its comma list of buttons. */
export type PageGrants = Readonly<Record<string, string>>;

export interface StaffAccount {
  session: Session;
  usrCd: number;
}

let counter = 0;

/**
 * A new employee with the TEACHER role who may sign in, holding exactly `grants` (with or without 'access his
 * students only' on each page it can narrow: the save refuses it elsewhere), signed in: what a test needs to
 * see the permission model from a restricted user's side.
 * The admin session creates it through the API, as an office would.
 */
export async function staffAccount(app: FastifyInstance, admin: Session, grants: PageGrants, dataChk: boolean, prefix = 'T'): Promise<StaffAccount> {
  const at = (modulename: string, pagename: string): Session => ({ ...admin, modulename, pagename });
  const roles = await call(app, at('master', 'role'), 'GET', '/api/role/?f_rl_nm=TEACHER');
  const usr_nm = `${prefix}${Date.now().toString(36).toUpperCase()}${counter++}`;
  const made = await call(app, at('employee', 'profile'), 'POST', '/api/employee/', {
    usr_nm,
    usr_full_nm: `Teacher ${usr_nm}`,
    usr_typ: roles.json<{ rows: Row[] }>().rows[0].rl_cd,
    usr_is_lgn: true,
    usr_pwd: STAFF_PASSWORD,
  });
  expect(made.statusCode, made.body).toBe(201);
  const usrCd = Number(made.json<Row>().usr_cd);
  const rows = Object.entries(grants).map(([k, btns]) => {
    const [m, p] = k.split('/');
    const pg = findPage(m, p);
    return { usr_prms_usr_cd: usrCd, usr_prms_mdl: m, usr_prms_page: p, usr_prms_is_alw: 1, usr_prms_btns: btns, usr_need_data_chk: dataChk && !!pg && dataChkApplies(pg) };
  });
  const saved = await call(app, at('user_permission', 'permission'), 'POST', '/api/user_permission/?usrNeedDataChk=0', rows);
  expect(saved.statusCode, saved.body).toBe(200);
  return { session: await login(app, usr_nm, STAFF_PASSWORD), usrCd };
}
