import { isView } from '@campus/entities/define';
import { entities, entity } from '@campus/entities/registry';
import type { RequestContext } from '../../access/request-context';
import { rows, sql, type Db, type Tx } from '../../db/client';
import { writeAudit } from '../../engine/audit';
import { getRow } from '../../engine/crud.service';
import type { Row } from '../../engine/entity-hooks';
import { conflict, forbidden } from '../../lib/http-error';
import { fromPaise, toPaise } from '../../lib/paise';
import { lockWallet, moveWallet } from '../wallet/wallet-ledger';
import { instituteYears, mustBeOpen, ownSections, yearLabel } from './promotion-plan';
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

async function blockers(tx: Tx, ctx: RequestContext, prmtnCd: number, toAcdmCd: number, list: NewRow[], yearText: string): Promise<string[]> {
  const ids = sql.join(list.map((s) => sql`${s.stud_cd}`), sql`, `);
  const found = new Map<number, string>();
  // Promoted on out of the target year (the same admission number, as a promotion finds a child): that
  // promotion is undone first, else its rows would stand on rows that are gone.
  const onward = await rows<{ id: number; q: number; s: number; e: number }>(
    tx,
    sql`SELECT DISTINCT o.stud_cd AS id, q.prmtn_cd AS q, a.acdm_strt_yr AS s, a.acdm_end_yr AS e FROM student o
        JOIN student n ON n.inst_cd = o.inst_cd AND lower(n.stud_adm_cd) = lower(o.stud_adm_cd)
        JOIN promotion q ON q.prmtn_cd = n.prmtn_cd AND q.inst_cd = o.inst_cd AND q.crt_acdm_cd = ${toAcdmCd} AND q.prmtn_sts = 'Promoted'
        JOIN academic a ON a.acdm_cd = q.to_acdm_cd
        WHERE o.stud_cd IN (${ids}) ORDER BY q.prmtn_cd`,
  );
  for (const h of onward) if (!found.has(Number(h.id))) found.set(Number(h.id), `is promoted on to ${yearLabel(Number(h.s), Number(h.e))} (promotion no. ${Number(h.q)})`);
  for (const { e, column } of referencing) {
    // The carry-forward into this promotion is what the undo reverses; one of an undone later promotion went
    // out and came back. Any other movement (a later carry-forward out included) blocks.
    const extra =
      e.name === 'wallet_transaction'
        ? sql` AND NOT (wlt_txn_typ = 'Carried Forward' AND EXISTS (SELECT 1 FROM promotion q WHERE q.prmtn_cd = wallet_transaction.prmtn_cd AND (q.prmtn_cd = ${prmtnCd} OR q.prmtn_sts = 'Undone')))`
        : sql``;
    const hits = await rows<{ id: number }>(tx, sql`SELECT DISTINCT ${sql.identifier(column)} AS id FROM ${sql.identifier(e.table)} WHERE ${sql.identifier(column)} IN (${ids})${extra}`);
    for (const h of hits) if (!found.has(Number(h.id))) found.set(Number(h.id), `has ${blockerWords[e.name] ?? `${/^[aeiou]/i.test(e.label) ? 'an' : 'a'} ${e.label.toLowerCase()} record`} in ${yearText}`);
  }
  // Library movements name their holder by type and code, not by a declared link.
  for (const table of ['book_checkout', 'book_checkin']) {
    const hits = await rows<{ id: number }>(
      tx,
      sql`SELECT DISTINCT bk_chk_usr_cd AS id FROM ${sql.identifier(table)} WHERE inst_cd = ${ctx.instCd} AND bk_chk_usr_typ = 'Student' AND bk_chk_usr_cd IN (${ids})`,
    );
    for (const h of hits) if (!found.has(Number(h.id))) found.set(Number(h.id), `has a library book movement in ${yearText}`);
  }
  return list.filter((s) => found.has(s.stud_cd)).map((s) => `${s.stud_fs_nm} (${s.cls_nm} ${s.sec_nm}) ${found.get(s.stud_cd)}.`);
}

/**
 * Undo: the promotion's rows leave the target year while nothing else was recorded on them there; the
 * carried wallet balances go back to last year's wallets and the new wallets are removed. The promotion
 * row stays, marked Undone.
 */
export async function undoPromotion(db: Db, ctx: RequestContext, prmtnCd: number): Promise<Row> {
  return db.transaction(async (tx) => {
    // Read whoever's it is: another teacher's promotion is refused below by name (403), not hidden (404).
    const all = { ...ctx, dataChk: false };
    const peek = await getRow(tx, promotionEntity, all, prmtnCd);
    await lockTargetYear(tx, ctx.instCd, Number(peek.to_acdm_cd));
    const p = await getRow(tx, promotionEntity, all, prmtnCd, true);
    // The same doors as the run: both years open to the user, the from-section his under 'his students only'.
    const years = await instituteYears(tx, ctx.instCd);
    const from = years.find((y) => y.acdm_cd === Number(p.crt_acdm_cd))!;
    const to = years.find((y) => y.acdm_cd === Number(p.to_acdm_cd))!;
    mustBeOpen(ctx, from);
    mustBeOpen(ctx, to);
    if (ctx.dataChk && !(await ownSections(tx, ctx, from.acdm_cd)).has(Number(p.frm_sec_cd))) throw forbidden('You can only undo promotions of your own sections.');
    if (p.prmtn_sts === 'Undone') throw conflict(`Promotion no. ${prmtnCd} is already undone.`);
    const toLabel = to.label;
    const fromLabel = from.label;
    const list = await rows<NewRow>(
      tx,
      sql`SELECT s.stud_cd, s.stud_fs_nm, s.stud_adm_cd, c.cls_nm, x.sec_nm FROM student s
          JOIN class c ON c.cls_cd = s.cls_cd JOIN section x ON x.sec_cd = s.sec_cd
          WHERE s.prmtn_cd = ${prmtnCd} AND s.inst_cd = ${ctx.instCd}
          ORDER BY s.stud_roll_nmb NULLS LAST, s.stud_fs_nm, s.stud_cd FOR UPDATE OF s`,
    );
    const students = list.map((s) => ({ ...s, stud_cd: Number(s.stud_cd) }));
    if (students.length) {
      const blocked = await blockers(tx, ctx, prmtnCd, to.acdm_cd, students, toLabel);
      if (blocked.length) {
        const shown = blocked.slice(0, 3).join(' ');
        const more = blocked.length > 3 ? ` And ${blocked.length - 3} more.` : '';
        throw conflict(`Promotion no. ${prmtnCd} cannot be undone: ${shown}${more}`);
      }
      const ids = sql.join(students.map((s) => sql`${s.stud_cd}`), sql`, `);
      const wallets = await rows<{ wlt_cd: number; stud_cd: number }>(tx, sql`SELECT wlt_cd, stud_cd FROM wallet WHERE stud_cd IN (${ids}) ORDER BY wlt_cd`);
      for (const w of wallets) {
        const fresh = await lockWallet(tx, ctx, Number(w.wlt_cd));
        if (fresh.paise > 0) {
          // Only this promotion's carry-forward is in it (anything else blocked above): the money goes back to
          // the wallet that movement names, never to one found again by admission number.
          const [src] = await rows<{ wlt_cd: number }>(
            tx,
            sql`SELECT o.wlt_cd FROM wallet_transaction t JOIN wallet o ON o.wlt_cd = t.src_wlt_cd
                WHERE t.wlt_cd = ${fresh.wlt_cd} AND t.prmtn_cd = ${prmtnCd} AND t.wlt_txn_typ = 'Carried Forward' AND t.wlt_txn_amt > 0
                  AND o.inst_cd = ${ctx.instCd} AND o.acdm_cd = ${from.acdm_cd}
                ORDER BY t.wlt_txn_cd LIMIT 1`,
          );
          if (!src) {
            const s = students.find((x) => x.stud_cd === fresh.stud_cd)!;
            throw conflict(`Promotion no. ${prmtnCd} cannot be undone: the wallet of ${fromLabel} that ${s.stud_fs_nm} (${s.cls_nm} ${s.sec_nm}) has ${fromPaise(fresh.paise)} from is not known.`);
          }
          const back = await moveWallet(tx, ctx, { wltCd: Number(src.wlt_cd), type: 'Carried Forward', paise: fresh.paise, reason: `Promotion no. ${prmtnCd} undone: back from ${toLabel}` });
          await tx.execute(sql`UPDATE wallet_transaction SET prmtn_cd = ${prmtnCd} WHERE wlt_txn_cd = ${back.wlt_txn_cd}`);
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
