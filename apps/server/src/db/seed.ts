import { livePages } from '@campus/entities/pages';
import { hash } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';
import { rows, sql, type Db, type DbOrTx } from './client';

export const ADMIN_LOGIN = 'ADMIN';

interface SeedResult {
  created: boolean;
  /** Set only when a random password was generated: printed once, never stored in clear. */
  generatedPassword?: string;
}

async function insertOne(db: DbOrTx, table: string, values: Record<string, string | number | boolean | null>, key: string): Promise<number> {
  const cols = Object.keys(values);
  const [r] = await rows<Record<string, number>>(
    db,
    sql`INSERT INTO ${sql.identifier(table)} (${sql.join(cols.map((c) => sql.identifier(c)), sql`, `)})
        VALUES (${sql.join(cols.map((c) => sql`${values[c]}`), sql`, `)}) RETURNING ${sql.identifier(key)}`,
  );
  return Number(r[key]);
}

/** The academic year running today for a year that starts in startMonth (1-12). */
export function currentStartYear(today: Date, startMonth: number): number {
  return today.getMonth() + 1 >= startMonth ? today.getFullYear() : today.getFullYear() - 1;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

async function seedInstitute(
  tx: DbOrTx,
  inst: { inst_nm: string; inst_typ: 'school' | 'college'; inst_ph: string; inst_eml: string; inst_adr1: string; inst_adr2: string },
  startMonth: number,
): Promise<{ instCd: number; adminRole: number }> {
  const instCd = await insertOne(tx, 'institute', { ...inst, is_active: true }, 'inst_cd');
  const y = currentStartYear(new Date(), startMonth);
  const endMonth = MONTHS[(startMonth + 9) % 12];
  for (const [start, active] of [
    [y - 1, false],
    [y, true],
  ] as const) {
    await insertOne(
      tx,
      'academic',
      { inst_cd: instCd, acdm_strt_yr: start, acdm_strt_mn: MONTHS[startMonth - 1], acdm_end_yr: start + 1, acdm_end_mn: endMonth, acdm_sts: active, acdm_crt_dt: `${start}-${String(startMonth).padStart(2, '0')}-01` },
      'acdm_cd',
    );
  }
  await insertOne(tx, 'setting', { inst_cd: instCd, setg_unq_cd: 'ACDM_STRT_MN', setg_nm: 'Academic year start month', setg_val: MONTHS[startMonth - 1] }, 'setg_cd');
  let adminRole = 0;
  const roles: [string, string][] = [
    ['ADMIN', 'Full access to every page'],
    [inst.inst_typ === 'college' ? 'HEAD OF DEPARTMENT' : 'HEAD MASTER', 'Head of the institution'],
    ['TEACHER', 'Teaching staff'],
    ['ACCOUNTANT', 'Fee collection and accounts'],
    ['LIBRARIAN', 'Library'],
    ['OFFICE CLERK', 'Front office'],
  ];
  for (const [rl_nm, rl_dscr] of roles) {
    const cd = await insertOne(tx, 'role', { inst_cd: instCd, rl_nm, rl_dscr }, 'rl_cd');
    if (rl_nm === 'ADMIN') adminRole = cd;
  }
  const designations = inst.inst_typ === 'college'
    ? ['Principal', 'Professor', 'Associate Professor', 'Assistant Professor', 'Lab Assistant', 'Accountant', 'Librarian']
    : ['Principal', 'Vice Principal', 'PG Assistant', 'BT Assistant', 'Secondary Grade Teacher', 'Physical Education Teacher', 'Accountant', 'Librarian', 'Office Assistant'];
  for (const [i, desg_nm] of designations.entries()) await insertOne(tx, 'designation', { inst_cd: instCd, desg_nm, desg_odr: i + 1 }, 'desg_cd');
  for (const rgn_nm of ['Hindu', 'Muslim', 'Christian', 'Sikh', 'Jain', 'Buddhist', 'Other']) await insertOne(tx, 'religion', { inst_cd: instCd, rgn_nm }, 'rgn_cd');
  for (const [cmty_nm, cmty_ctgy] of [['OC', 'General'], ['BC', 'Backward Class'], ['MBC', 'Most Backward Class'], ['SC', 'Scheduled Caste'], ['ST', 'Scheduled Tribe']]) {
    await insertOne(tx, 'community', { inst_cd: instCd, cmty_nm, cmty_ctgy }, 'cmty_cd');
  }
  for (const [leav_typ_nm, leav_typ_for, leav_typ_days] of [
    ['Casual Leave', 'Employee', 12],
    ['Medical Leave', 'Both', 10],
    ['Earned Leave', 'Employee', 15],
    ['On Duty', 'Both', 0],
    ['Sick Leave', 'Student', 0],
  ] as const) {
    await insertOne(tx, 'leave_type', { inst_cd: instCd, leav_typ_nm, leav_typ_for, leav_typ_days }, 'leav_typ_cd');
  }
  for (const doc_typ_nm of ['Transfer Certificate', 'Birth Certificate', 'Aadhaar Card', 'Community Certificate', 'Mark Sheet', 'Passport Photo']) {
    await insertOne(tx, 'document_type', { inst_cd: instCd, doc_typ_nm }, 'doc_typ_cd');
  }
  return { instCd, adminRole };
}

/**
 * On an empty database: a demo school and a demo college, their years and masters, and the ADMIN user,
 * whose password is ADMIN_PASSWORD or a random one returned to be printed once.
 */
export async function seedIfEmpty(db: Db, adminPassword?: string): Promise<SeedResult> {
  const [{ n }] = await rows<{ n: string }>(db, sql`SELECT count(*)::text AS n FROM institute`);
  if (Number(n) > 0) {
    await ensureAdminGrants(db);
    return { created: false };
  }
  const password = adminPassword ?? randomBytes(12).toString('base64url');
  // Hashed on libuv's threads while the masters are written; awaited for the ADMIN row.
  const hashing = hash(password);
  hashing.catch(() => undefined);
  // A process that loses the race to another one starting at the same time created nothing: it must not
  // print a password (or build the demo) for data it did not write.
  const created = await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(727275)`);
    const [{ n: again }] = await rows<{ n: string }>(tx, sql`SELECT count(*)::text AS n FROM institute`);
    if (Number(again) > 0) return false;
    for (const [lang_nm, lang_asset_fl_nm] of [['English', 'english'], ['Tamil', 'tamil']]) {
      await insertOne(tx, 'language', { lang_nm, lang_asset_fl_nm, lang_dscr: `${lang_nm} (college variant: ${lang_asset_fl_nm}_clg)` }, 'lang_cd');
    }
    const school = await seedInstitute(
      tx,
      { inst_nm: 'Sunrise Matriculation Higher Secondary School', inst_typ: 'school', inst_ph: '+91 44 2345 6789', inst_eml: 'office@sunrise-school.example', inst_adr1: '12, Gandhi Road, Anna Nagar', inst_adr2: 'Chennai 600040' },
      6,
    );
    const college = await seedInstitute(
      tx,
      { inst_nm: 'Riverside College of Arts and Science', inst_typ: 'college', inst_ph: '+91 422 245 1122', inst_eml: 'office@riverside-college.example', inst_adr1: '45, Avinashi Road', inst_adr2: 'Coimbatore 641018' },
      7,
    );
    const admin = await insertOne(
      tx,
      'employee',
      { inst_cd: school.instCd, usr_nm: ADMIN_LOGIN, usr_full_nm: 'Administrator', usr_id: 'EMP0001', usr_typ: school.adminRole, usr_is_lgn: true, usr_pwd: await hashing, usr_gnd: 'Other', usr_eml: 'admin@sunrise-school.example' },
      'usr_cd',
    );
    await insertOne(tx, 'user_institute', { inst_cd: college.instCd, usr_cd: admin, usr_inst_sts: true, usr_inst_dscr: 'Administrator of both institutes' }, 'usr_inst_cd');
    return true;
  });
  await ensureAdminGrants(db);
  if (!created) return { created: false };
  return { created: true, generatedPassword: adminPassword ? undefined : password };
}

/**
 * The ADMIN login holds every live page with every button in each institute it can enter, including pages
 * added by an upgrade. Rows an administrator edited by hand are left alone; only missing ones are added.
 */
export async function ensureAdminGrants(db: Db): Promise<void> {
  const [admin] = await rows<{ usr_cd: number; inst_cd: number }>(db, sql`SELECT usr_cd, inst_cd FROM employee WHERE usr_nm = ${ADMIN_LOGIN}`);
  if (!admin) return;
  const insts = await rows<{ inst_cd: number }>(
    db,
    sql`SELECT inst_cd FROM institute WHERE inst_cd = ${admin.inst_cd}
        OR inst_cd IN (SELECT inst_cd FROM user_institute WHERE usr_cd = ${admin.usr_cd})`,
  );
  // One statement per institute (was one per page): every start runs this, and the first start's fee of a
  // round trip per page and institute showed in the start-up time.
  const pages = JSON.stringify(livePages().map((pg) => ({ mdl: pg.module, page: pg.page, url: `sms/${pg.module}/${pg.page}`, btns: pg.buttons.join(',') })));
  for (const { inst_cd } of insts) {
    await db.execute(sql`
      INSERT INTO user_permission (inst_cd, usr_prms_usr_cd, usr_prms_mdl, usr_prms_page, usr_prms_pth_url, usr_prms_is_alw,
                                   usr_prms_btns, usr_need_data_chk, usr_prms_dscr, usr_sts, usr_prms_hdr_crt_dt, crt_by)
      SELECT ${inst_cd}, ${admin.usr_cd}, p.mdl, p.page, p.url, true, p.btns, false, 'Administrator', true, current_date, ${admin.usr_cd}
      FROM ROWS FROM (json_to_recordset(${pages}::json) AS (mdl text, page text, url text, btns text)) WITH ORDINALITY AS p(mdl, page, url, btns, ordinality)
      WHERE NOT EXISTS (SELECT 1 FROM user_permission WHERE inst_cd = ${inst_cd} AND usr_prms_usr_cd = ${admin.usr_cd}
                        AND usr_prms_mdl = p.mdl AND usr_prms_page = p.page)
      ORDER BY p.ordinality`);
  }
}
