import { isView } from '@campus/entities/define';
import { entities, entity } from '@campus/entities/registry';
import type { RequestContext } from '../../access/request-context';
import { rows, sql, type Db, type Tx } from '../../db/client';
import { writeAudit } from '../../engine/audit';
import { getRow } from '../../engine/crud.service';
import type { Row } from '../../engine/entity-hooks';
import { conflict } from '../../lib/http-error';
import { fromPaise, toPaise } from '../../lib/paise';
import { lockWallet, moveWallet } from '../wallet/wallet-ledger';
import { yearLabel } from './promotion-plan';
import { lockTargetYear } from './promote-students.service';

const promotionEntity = entity('promotion');
const studentEntity = entity('student');
const walletEntity = entity('wallet');

/** How a blocking record reads in the refusal ('Anu (VII A) has a fee bill in 2026-27.'). */
const blockerWords: Record<string, string> = {
  collected_fee: 'a fee bill',
  collected_fee_detail: 'a fee bill',
  cancel_fee: 'a cancelled fee bill',
  student_mark: 'marks',
  student_attendance: 'attendance',
  certificate: 'a certificate',
  student_discount: 'a discount',
  wallet_transaction: 'wallet movements',
  online_payment_request: 'an online payment',
};

/**
 * Everything that names a student row (declared links to student, from the registry), but the wallet, whose
 * carry-forward the undo reverses itself: a wallet movement other than the carry-forward blocks instead.
 */
const referencing = entities
  .filter((e) => !isView(e) && e.name !== 'wallet' && e.name !== 'student')
  .flatMap((e) => Object.entries(e.fields).filter(([, f]) => f.kind === 'link' && f.to === 'student').map(([column]) => ({ e, column })));

interface NewRow {
  stud_cd: number;
  stud_fs_nm: string;
  stud_adm_cd: string;
  cls_nm: string;
  sec_nm: string;
}

async function blockers(tx: Tx, ctx: RequestContext, list: NewRow[], yearText: string): Promise<string[]> {
  const ids = sql.join(list.map((s) => sql`${s.stud_cd}`), sql`, `);
  const found = new Map<number, string>();
  for (const { e, column } of referencing) {
    const extra = e.name === 'wallet_transaction' ? sql` AND wlt_txn_typ <> 'Carried Forward'` : sql``;
    const hits = await rows<{ id: number }>(tx, sql`SELECT DISTINCT ${sql.identifier(column)} AS id FROM ${sql.identifier(e.table)} WHERE ${sql.identifier(column)} IN (${ids})${extra}`);
    for (const h of hits) if (!found.has(Number(h.id))) found.set(Number(h.id), blockerWords[e.name] ?? `${/^[aeiou]/i.test(e.label) ? 'an' : 'a'} ${e.label.toLowerCase()} record`);
  }
  // Library movements name their holder by type and code, not by a declared link.
  for (const table of ['book_checkout', 'book_checkin']) {
    const hits = await rows<{ id: number }>(
      tx,
      sql`SELECT DISTINCT bk_chk_usr_cd AS id FROM ${sql.identifier(table)} WHERE inst_cd = ${ctx.instCd} AND bk_chk_usr_typ = 'Student' AND bk_chk_usr_cd IN (${ids})`,
    );
    for (const h of hits) if (!found.has(Number(h.id))) found.set(Number(h.id), 'a library book movement');
  }
  return list.filter((s) => found.has(s.stud_cd)).map((s) => `${s.stud_fs_nm} (${s.cls_nm} ${s.sec_nm}) has ${found.get(s.stud_cd)} in ${yearText}.`);
}

/**
 * Undo: the promotion's rows leave the target year while nothing else was recorded on them there; the
 * carried wallet balances go back to last year's wallets and the new wallets are removed. The promotion
 * row stays, marked Undone.
 */
export async function undoPromotion(db: Db, ctx: RequestContext, prmtnCd: number): Promise<Row> {
  return db.transaction(async (tx) => {
    const peek = await getRow(tx, promotionEntity, ctx, prmtnCd);
    await lockTargetYear(tx, ctx.instCd, Number(peek.to_acdm_cd));
    const p = await getRow(tx, promotionEntity, ctx, prmtnCd, true);
    if (p.prmtn_sts === 'Undone') throw conflict(`Promotion no. ${prmtnCd} is already undone.`);
    const [years] = await rows<{ fs: number; fe: number; ts: number; te: number }>(
      tx,
      sql`SELECT f.acdm_strt_yr AS fs, f.acdm_end_yr AS fe, t.acdm_strt_yr AS ts, t.acdm_end_yr AS te FROM academic f, academic t
          WHERE f.acdm_cd = ${Number(p.crt_acdm_cd)} AND t.acdm_cd = ${Number(p.to_acdm_cd)}`,
    );
    const toLabel = yearLabel(Number(years.ts), Number(years.te));
    const fromLabel = yearLabel(Number(years.fs), Number(years.fe));
    const list = await rows<NewRow>(
      tx,
      sql`SELECT s.stud_cd, s.stud_fs_nm, s.stud_adm_cd, c.cls_nm, x.sec_nm FROM student s
          JOIN class c ON c.cls_cd = s.cls_cd JOIN section x ON x.sec_cd = s.sec_cd
          WHERE s.prmtn_cd = ${prmtnCd} AND s.inst_cd = ${ctx.instCd}
          ORDER BY s.stud_roll_nmb NULLS LAST, s.stud_fs_nm, s.stud_cd FOR UPDATE OF s`,
    );
    const students = list.map((s) => ({ ...s, stud_cd: Number(s.stud_cd) }));
    if (students.length) {
      const blocked = await blockers(tx, ctx, students, toLabel);
      if (blocked.length) {
        const shown = blocked.slice(0, 3).join(' ');
        const more = blocked.length > 3 ? ` And ${blocked.length - 3} more.` : '';
        throw conflict(`Promotion no. ${prmtnCd} cannot be undone: ${shown}${more}`);
      }
      const ids = sql.join(students.map((s) => sql`${s.stud_cd}`), sql`, `);
      const wallets = await rows<{ wlt_cd: number; stud_cd: number; stud_adm_cd: string }>(
        tx,
        sql`SELECT w.wlt_cd, w.stud_cd, s.stud_adm_cd FROM wallet w JOIN student s ON s.stud_cd = w.stud_cd WHERE w.stud_cd IN (${ids}) ORDER BY w.wlt_cd`,
      );
      for (const w of wallets) {
        const fresh = await lockWallet(tx, ctx, Number(w.wlt_cd));
        if (fresh.paise > 0) {
          const [old] = await rows<{ wlt_cd: number }>(
            tx,
            sql`SELECT w.wlt_cd FROM wallet w JOIN student s ON s.stud_cd = w.stud_cd
                WHERE s.inst_cd = ${ctx.instCd} AND s.acdm_cd = ${Number(p.crt_acdm_cd)} AND lower(s.stud_adm_cd) = lower(${w.stud_adm_cd})`,
          );
          // Only carried-forward money is in it (anything else blocked above): it goes back where it came from.
          if (old) await moveWallet(tx, ctx, { wltCd: Number(old.wlt_cd), type: 'Carried Forward', paise: fresh.paise, reason: `Promotion no. ${prmtnCd} undone: back from ${toLabel}` });
        }
        const [moved] = await rows<{ s: string }>(tx, sql`SELECT coalesce(sum(wlt_txn_amt), 0)::text AS s FROM wallet_transaction WHERE wlt_cd = ${Number(w.wlt_cd)}`);
        await tx.execute(sql`DELETE FROM wallet_transaction WHERE wlt_cd = ${Number(w.wlt_cd)}`);
        await tx.execute(sql`DELETE FROM wallet WHERE wlt_cd = ${Number(w.wlt_cd)}`);
        await writeAudit(tx, ctx, walletEntity, 'DELETE', Number(w.wlt_cd), { wlt_cd: Number(w.wlt_cd), stud_cd: Number(w.stud_cd), wlt_amt: fromPaise(toPaise(moved.s)) }, null);
      }
      await tx.execute(sql`DELETE FROM student WHERE prmtn_cd = ${prmtnCd} AND inst_cd = ${ctx.instCd}`);
      for (const s of students) await writeAudit(tx, ctx, studentEntity, 'DELETE', s.stud_cd, { ...s, prmtn_cd: prmtnCd }, null);
    }
    await tx.execute(
      sql`UPDATE promotion SET prmtn_sts = 'Undone', row_ver = row_ver + 1, updt_by = ${ctx.user.usr_cd}, updt_dt = now() WHERE prmtn_cd = ${prmtnCd}`,
    );
    const after = await getRow(tx, promotionEntity, ctx, prmtnCd);
    await writeAudit(tx, ctx, promotionEntity, 'PUT', prmtnCd, p, { ...after, from_year: fromLabel, to_year: toLabel });
    return after;
  });
}
