import { expect } from 'vitest';
import { call, login, type Session, type TestServer } from './test-server';
import { staffAccount } from './staff-account';

export type Row = Record<string, unknown>;

/**
 * Classes, sections and students for the student workflows' tests (attendance, interchange): class 1 with
 * sections A and B, class 2 with section C, made through the API like an office would.
 */
export interface Fixture {
  admin: Session;
  year: number;
  cls1: number;
  cls2: number;
  secA: number;
  secB: number;
  secC: number;
  /** A's students in register order (roll 1, 2, 3), B's and C's. */
  studA: number[];
  studB: number[];
  studC: number[];
  names: Map<number, string>;
  as(s: Session, module: string, page: string): Session;
  created(s: Session, url: string, body: Row, key: string): Promise<number>;
  /** A signed-in employee holding exactly these grants; data_chk restricts them to their mapped sections. */
  employee(grants: { module: string; page: string; buttons: string }[], dataChk: boolean, sections?: number[]): Promise<Session>;
}

export async function makeFixture(srv: TestServer): Promise<Fixture> {
  const tag = `W${Date.now().toString(36).toUpperCase()}`;
  let counter = 0;
  const next = (): string => `${tag}${counter++}`;
  const admin0 = await login(srv.app);
  const years = (await call(srv.app, { ...admin0, pagename: 'academic', modulename: 'institute' }, 'GET', '/api/academic/?size=50')).json<{ rows: Row[] }>().rows;
  const year = Number(years.find((y) => y.acdm_sts === true)?.acdm_cd);
  const admin = { ...admin0, acdmCd: year };
  const as = (s: Session, module: string, page: string): Session => ({ ...s, modulename: module, pagename: page });
  const created = async (s: Session, url: string, body: Row, key: string): Promise<number> => {
    const res = await call(srv.app, s, 'POST', url, body);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
    return Number(res.json<Row>()[key]);
  };
  const cls = as(admin, 'class_section', 'class');
  const cls1 = await created(cls, '/api/class/', { cls_nm: `Class ${next()}` }, 'cls_cd');
  const cls2 = await created(cls, '/api/class/', { cls_nm: `Class ${next()}` }, 'cls_cd');
  const sec = as(admin, 'class_section', 'section');
  const secA = await created(sec, '/api/section/', { sec_nm: 'A', cls_cd: cls1 }, 'sec_cd');
  const secB = await created(sec, '/api/section/', { sec_nm: 'B', cls_cd: cls1 }, 'sec_cd');
  const secC = await created(sec, '/api/section/', { sec_nm: 'C', cls_cd: cls2 }, 'sec_cd');
  const names = new Map<number, string>();
  const stud = async (c: number, s: number, name: string, roll: number): Promise<number> => {
    const id = await created(as(admin, 'student', 'profile'), '/api/student/', { stud_fs_nm: name, stud_adm_cd: `ADM${next()}`, stud_roll_nmb: roll, cls_cd: c, sec_cd: s }, 'stud_cd');
    names.set(id, name);
    return id;
  };
  // Created out of register order: the sheet must sort by roll number, not by creation.
  const a3 = await stud(cls1, secA, `Zara ${tag}`, 3);
  const a1 = await stud(cls1, secA, `Meena ${tag}`, 1);
  const a2 = await stud(cls1, secA, `Arun ${tag}`, 2);
  const b1 = await stud(cls1, secB, `Bala ${tag}`, 1);
  const c1 = await stud(cls2, secC, `Chitra ${tag}`, 1);

  const employee: Fixture['employee'] = async (grants, dataChk, sections = []) => {
    const { session, usrCd } = await staffAccount(srv.app, admin, Object.fromEntries(grants.map((g) => [`${g.module}/${g.page}`, g.buttons])), dataChk);
    // A subject of their own: a section maps each subject once.
    const subCd = sections.length ? await created(as(admin, 'subject', 'subject'), '/api/subject/', { sub_nm: `Subject ${next()}` }, 'sub_cd') : 0;
    for (const s of sections) {
      const clsOf = s === secC ? cls2 : cls1;
      await created(as(admin, 'subject', 'subject_detail'), '/api/subjectDetail/', { cls_cd: clsOf, sec_cd: s, sub_cd: subCd, usr_cd: usrCd }, 'sub_dtl_cd');
    }
    return { ...session, acdmCd: year };
  };
  return { admin, year, cls1, cls2, secA, secB, secC, studA: [a1, a2, a3], studB: [b1], studC: [c1], names, as, created, employee };
}
