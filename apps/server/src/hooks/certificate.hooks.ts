import type { CertificateKind } from '@campus/entities/student/certificate.entity';
import type { RequestContext } from '../access/request-context';
import { rows, sql, type Tx } from '../db/client';
import { registerHooks, type Row } from '../engine/entity-hooks';
import { badRequest } from '../lib/http-error';

const blank = (v: unknown): boolean => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/** The printed title of each kind, used as the certificate's name when the clerk leaves it empty. */
export const certificateTitles: Record<CertificateKind, string> = {
  Bonafide: 'Bonafide Certificate',
  Conduct: 'Conduct Certificate',
  'Transfer Certificate': 'Transfer Certificate',
};

interface Refusal {
  field: string;
  message: string;
}

/**
 * What a kind must state before it is issued (and keep stating on an edit): a transfer certificate its date
 * and reason of leaving and the conduct; a conduct certificate the conduct. Null when the row may be saved.
 * The field is named so that the form can point at it.
 */
export function certificateRefusal(row: Row): Refusal | null {
  const kind = row.cert_fct_typ as CertificateKind | undefined;
  if (kind === 'Transfer Certificate') {
    if (blank(row.cert_fct_lvng_dt)) return { field: 'cert_fct_lvng_dt', message: "Please fill the 'Date of Leaving' of a transfer certificate." };
    if (blank(row.cert_fct_lvng_rsn)) return { field: 'cert_fct_lvng_rsn', message: "Please enter the 'Reason for Leaving' of a transfer certificate." };
  }
  if ((kind === 'Transfer Certificate' || kind === 'Conduct') && blank(row.cert_fct_cndct)) {
    return { field: 'cert_fct_cndct', message: "Please select the 'Conduct and Character' the certificate states." };
  }
  return null;
}

/** A pupil cannot leave before joining: the leaving date is checked against the student's date of joining. */
async function leavingRefusal(tx: Tx, row: Row): Promise<Refusal | null> {
  if (blank(row.cert_fct_lvng_dt) || blank(row.stud_cd)) return null;
  const [s] = await rows<{ stud_doj: string | null }>(tx, sql`SELECT stud_doj::text AS stud_doj FROM student WHERE stud_cd = ${Number(row.stud_cd)}`);
  if (s?.stud_doj && String(row.cert_fct_lvng_dt) < s.stud_doj) {
    return { field: 'cert_fct_lvng_dt', message: `'Date of Leaving' cannot be before the student's 'Date of Joining' (${s.stud_doj}).` };
  }
  return null;
}

/**
 * The next number of the institute's one running series (across years and kinds, like a school's
 * certificate register), under a transaction lock on the institute so two clerks never get the same one.
 */
export async function nextCertificateNumber(tx: Tx, instCd: number): Promise<number> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${7302}::int, ${instCd}::int)`);
  const [{ n }] = await rows<{ n: number }>(tx, sql`SELECT coalesce(max(cert_fct_nmb), 0)::int + 1 AS n FROM certificate WHERE inst_cd = ${instCd}`);
  return Number(n);
}

async function check(tx: Tx, row: Row): Promise<void> {
  const problem = certificateRefusal(row) ?? (await leavingRefusal(tx, row));
  if (problem) throw badRequest(problem.message, [problem]);
}

export function registerCertificateHooks(): void {
  registerHooks('certificate', {
    async beforeCreate(tx: Tx, ctx: RequestContext, values: Row) {
      await check(tx, values);
      if (blank(values.cert_fct_nm)) values.cert_fct_nm = certificateTitles[values.cert_fct_typ as CertificateKind] ?? null;
      values.cert_fct_nmb = await nextCertificateNumber(tx, ctx.instCd);
    },
    async beforeUpdate(tx: Tx, _ctx: RequestContext, before: Row, changes: Row) {
      const after = { ...before, ...changes };
      await check(tx, after);
      if ('cert_fct_nm' in changes && blank(changes.cert_fct_nm)) changes.cert_fct_nm = certificateTitles[after.cert_fct_typ as CertificateKind] ?? null;
    },
  });
}
