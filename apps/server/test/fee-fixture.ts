import { expect } from 'vitest';
import { call, login, type Session, type TestServer } from './test-server';
import { staffAccount } from './staff-account';

type Row = Record<string, unknown>;

/** A small school year for the fee tests: one class with two sections, two terms, three fees, tenders. */
export interface FeeWorld {
  admin: Session;
  thisYear: number;
  lastYear: number;
  cls: number;
  clsNm: string;
  secA: number;
  secB: number;
  term1: number;
  term2: number;
  tuition1: number;
  books1: number;
  tuition2: number;
  cash: number;
  cheque: number;
  off: number;
  tag: string;
  next(): string;
  as(s: Session, module: string, page: string, acdmCd?: number): Session;
  created(s: Session, url: string, body: Row, key: string): Promise<number>;
  /** `more`: other student fields (father's name, ...). */
  student(sec: number, name?: string, acdmCd?: number, adm?: string, more?: Row): Promise<number>;
  /** An employee holding these pages (module/page -> buttons), with or without 'his students only'. */
  employee(grants: Record<string, string>, dataChk: boolean, sections?: number[]): Promise<Session>;
  /** A fee of the class in last year (5000.00, an old term long due, no late fee): last year's arrears. */
  lastYearFee(): Promise<number>;
  /** The institute's 'Wallet' tender (made on first use). */
  walletTender(): Promise<number>;
  /** A new wallet (balance 0) for the student, through the Wallet page. */
  wallet(stud: number): Promise<number>;
}

export async function feeWorld(srv: TestServer): Promise<FeeWorld> {
  const tag = `F${Date.now().toString(36).toUpperCase()}`;
  let counter = 0;
  const next = () => `${tag}${counter++}`;
  const admin = await login(srv.app);
  const as = (s: Session, module: string, page: string, acdmCd = w.thisYear): Session => ({ ...s, modulename: module, pagename: page, acdmCd });
  const created = async (s: Session, url: string, body: Row, key: string): Promise<number> => {
    const res = await call(srv.app, s, 'POST', url, body);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
    return Number(res.json<Row>()[key]);
  };
  const years = (await call(srv.app, { ...admin, modulename: 'institute', pagename: 'academic' }, 'GET', '/api/academic/?size=50')).json<{ rows: Row[] }>().rows;
  const w = {
    admin,
    tag,
    next,
    as,
    created,
    thisYear: Number(years.find((y) => y.acdm_sts === true)?.acdm_cd),
    lastYear: Number(years.find((y) => y.acdm_sts === false)?.acdm_cd),
  } as FeeWorld;
  w.clsNm = `Class ${next()}`;
  w.cls = await created(as(admin, 'class_section', 'class'), '/api/class/', { cls_nm: w.clsNm }, 'cls_cd');
  w.secA = await created(as(admin, 'class_section', 'section'), '/api/section/', { sec_nm: 'A', cls_cd: w.cls }, 'sec_cd');
  w.secB = await created(as(admin, 'class_section', 'section'), '/api/section/', { sec_nm: 'B', cls_cd: w.cls }, 'sec_cd');
  const grp = as(admin, 'fee', 'fee_group');
  // Term 1 fell due long ago with a late fee; term 2 is not due yet.
  w.term1 = await created(grp, '/api/fee_group/', { fee_grp_nm: `Term 1 ${tag}`, fee_grp_fee_str_dt: '2020-06-01', fee_grp_fee_exp_dt: '2020-06-30', fee_grp_fee_prid_amt: '100.00' }, 'fee_grp_cd');
  w.term2 = await created(grp, '/api/fee_group/', { fee_grp_nm: `Term 2 ${tag}`, fee_grp_fee_str_dt: '2020-07-01', fee_grp_fee_exp_dt: '2099-12-31', fee_grp_fee_prid_amt: '50.00' }, 'fee_grp_cd');
  const typ = as(admin, 'fee', 'fee_type');
  const tuition = await created(typ, '/api/fee_type/', { feetyp_nm: `Tuition ${tag}` }, 'feetyp_cd');
  const books = await created(typ, '/api/fee_type/', { feetyp_nm: `Books ${tag}` }, 'feetyp_cd');
  const map = as(admin, 'fee', 'fee');
  w.tuition1 = await created(map, '/api/fee/', { fee_grp_cd: w.term1, feetyp_cd: tuition, cls_cd: w.cls, fee_amt: '8000.00', fee_amt_aftr_prmtn: '7000.00' }, 'fee_cd');
  w.books1 = await created(map, '/api/fee/', { fee_grp_cd: w.term1, feetyp_cd: books, cls_cd: w.cls, fee_amt: '1234.50', fee_amt_aftr_prmtn: '1234.50' }, 'fee_cd');
  w.tuition2 = await created(map, '/api/fee/', { fee_grp_cd: w.term2, feetyp_cd: tuition, cls_cd: w.cls, fee_amt: '8000.00', fee_amt_aftr_prmtn: '7000.00' }, 'fee_cd');
  const tnd = as(admin, 'fee', 'tender_type');
  w.cash = await created(tnd, '/api/tender_type/', { tnd_typ_nm: `Cash ${tag}`, tnd_typ_sts: true }, 'tnd_typ_cd');
  w.cheque = await created(tnd, '/api/tender_type/', { tnd_typ_nm: `Cheque ${tag}`, tnd_typ_fld_val: 'Cheque No.', tnd_typ_sts: true }, 'tnd_typ_cd');
  w.off = await created(tnd, '/api/tender_type/', { tnd_typ_nm: `Card ${tag}`, tnd_typ_sts: false }, 'tnd_typ_cd');
  w.student = async (sec, name = `Student ${next()}`, acdmCd = w.thisYear, adm = `ADM${next()}`, more = {}) =>
    created(as(admin, 'student', 'profile', acdmCd), '/api/student/', { stud_fs_nm: name, stud_adm_cd: adm, cls_cd: w.cls, sec_cd: sec, ...more }, 'stud_cd');
  w.employee = async (grants, dataChk, sections = []) => {
    const { session, usrCd } = await staffAccount(srv.app, admin, grants, dataChk, 'E');
    if (sections.length) {
      const subCd = await created(as(admin, 'subject', 'subject'), '/api/subject/', { sub_nm: `Maths ${next()}` }, 'sub_cd');
      for (const sec of sections) {
        await created(as(admin, 'subject', 'subject_detail'), '/api/subjectDetail/', { cls_cd: w.cls, sec_cd: sec, sub_cd: subCd, usr_cd: usrCd }, 'sub_dtl_cd');
      }
    }
    return { ...session, acdmCd: w.thisYear };
  };
  let oldFee: number | undefined;
  w.lastYearFee = async () => {
    if (oldFee !== undefined) return oldFee;
    const grpCd = await created(as(admin, 'fee', 'fee_group', w.lastYear), '/api/fee_group/', { fee_grp_nm: `Old Term ${tag}`, fee_grp_fee_str_dt: '2019-06-01', fee_grp_fee_exp_dt: '2019-06-30' }, 'fee_grp_cd');
    const typCd = await created(as(admin, 'fee', 'fee_type'), '/api/fee_type/', { feetyp_nm: `Old Tuition ${tag}` }, 'feetyp_cd');
    oldFee = await created(as(admin, 'fee', 'fee', w.lastYear), '/api/fee/', { fee_grp_cd: grpCd, feetyp_cd: typCd, cls_cd: w.cls, fee_amt: '5000.00', fee_amt_aftr_prmtn: '5000.00' }, 'fee_cd');
    return oldFee;
  };
  let walletTnd: number | undefined;
  w.walletTender = async () => {
    walletTnd ??= await created(tnd, '/api/tender_type/', { tnd_typ_nm: 'Wallet', tnd_typ_sts: true }, 'tnd_typ_cd');
    return walletTnd;
  };
  w.wallet = async (stud) => created(as(admin, 'student', 'wallet'), '/api/wallet/', { stud_cd: stud }, 'wlt_cd');
  return w;
}
