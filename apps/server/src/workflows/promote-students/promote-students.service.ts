import { entity } from '@campus/entities/registry';
import type { RequestContext } from '../../access/request-context';
import { rows, sql, type Db, type Tx } from '../../db/client';
import { writeAudit } from '../../engine/audit';
import { localDateTime } from '../../lib/clock';
import { badRequest, conflict } from '../../lib/http-error';
import { fromPaise } from '../../lib/paise';
import { lockWallet, moveWallet } from '../wallet/wallet-ledger';
import { planPromotion, sectionName, type AlreadyThere, type MovePlan, type YearInfo } from './promotion-plan';
import type { PromoteStudentsInput } from './promote-students.schema';

const studentEntity = entity('student');
const promotionEntity = entity('promotion');
const walletEntity = entity('wallet');

/** Promotions and their undo into one year of one institute wait for each other. */
export async function lockTargetYear(tx: Tx, instCd: number, toAcdmCd: number): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`promotion:${instCd}:${toAcdmCd}`}, 0))`);
}

const nameList = (list: AlreadyThere[]): string => list.map((s) => `${s.stud_fs_nm} (${s.there_cls_nm} ${s.there_sec_nm})`).join(', ');

const twice = (list: AlreadyThere[], to: YearInfo): string =>
  `${nameList(list)} ${list.length === 1 ? 'is' : 'are'} already in ${to.label}: a child is promoted into a year only once. Nothing was promoted.`;

export interface PromotedSection {
  prmtn_cd: number;
  from: string;
  to: string;
  prmtn_stud_cnt: number;
  students: { stud_cd: number; stud_fs_nm: string; stud_adm_cd: string; stud_roll_nmb: number | null }[];
}

export interface PromotionResult {
  frm_acdm: string;
  to_acdm: string;
  promotions: PromotedSection[];
  skipped: number;
  held_back: number;
  /** Wallet balances carried into the new year. */
  carried: { stud_fs_nm: string; amount: string }[];
}

/** Next year's rows of one section's moving children: a copy of the person, in the new class and section. */
async function writeStudents(tx: Tx, ctx: RequestContext, move: MovePlan, to: YearInfo, prmtnCd: number): Promise<PromotedSection['students']> {
  const values = move.moving.map((s) => sql`(${s.stud_cd}::int, ${s.new_roll}::int)`);
  const written = await rows<{ stud_cd: number; stud_fs_nm: string; stud_adm_cd: string; stud_roll_nmb: number | null }>(
    tx,
    sql`INSERT INTO student (stud_fs_nm, stud_nm_ntv_lang, stud_adm_cd, stud_roll_nmb, cls_cd, sec_cd, medium, stud_dob, stud_doj, stud_gnd,
          stud_fthr_nm, stud_mthr_nm, stud_ph, stud_eml, stud_per_adr, rgn_cd, cmty_cd, prmtn_cd, inst_cd, acdm_cd, crt_by)
        SELECT s.stud_fs_nm, s.stud_nm_ntv_lang, s.stud_adm_cd, v.roll, ${move.to.cls_cd}, ${move.to.sec_cd}, s.medium, s.stud_dob, s.stud_doj, s.stud_gnd,
          s.stud_fthr_nm, s.stud_mthr_nm, s.stud_ph, s.stud_eml, s.stud_per_adr, s.rgn_cd, s.cmty_cd, ${prmtnCd}, s.inst_cd, ${to.acdm_cd}, ${ctx.user.usr_cd}
        FROM student s JOIN (VALUES ${sql.join(values, sql`, `)}) AS v(stud_cd, roll) ON v.stud_cd = s.stud_cd
        WHERE s.inst_cd = ${ctx.instCd}
        RETURNING stud_cd, stud_fs_nm, stud_adm_cd, stud_roll_nmb`,
  );
  const out = written.map((w) => ({ ...w, stud_cd: Number(w.stud_cd), stud_roll_nmb: w.stud_roll_nmb === null ? null : Number(w.stud_roll_nmb) }));
  for (const w of out) {
    await writeAudit(tx, ctx, studentEntity, 'POST', w.stud_cd, null, {
      ...w,
      cls_cd: move.to.cls_cd,
      sec_cd: move.to.sec_cd,
      acdm_cd: to.acdm_cd,
      prmtn_cd: prmtnCd,
    });
  }
  return out.sort((a, b) => (a.stud_roll_nmb ?? 1e9) - (b.stud_roll_nmb ?? 1e9) || a.stud_fs_nm.localeCompare(b.stud_fs_nm));
}

interface Moved {
  oldCd: number;
  newCd: number;
  name: string;
  prmtnCd: number;
}

/**
 * A balance left in last year's wallet follows the child: 'Carried Forward' out of the old wallet and into a
 * new wallet of the new year's row, in the promotion's transaction (both movements or neither).
 */
async function carryWallets(tx: Tx, ctx: RequestContext, from: YearInfo, to: YearInfo, moved: Moved[]): Promise<PromotionResult['carried']> {
  if (moved.length === 0) return [];
  const wallets = await rows<{ wlt_cd: number; stud_cd: number }>(
    tx,
    sql`SELECT wlt_cd, stud_cd FROM wallet WHERE inst_cd = ${ctx.instCd} AND acdm_cd = ${from.acdm_cd}
          AND stud_cd IN (${sql.join(moved.map((m) => sql`${m.oldCd}`), sql`, `)}) ORDER BY wlt_cd`,
  );
  const carried: PromotionResult['carried'] = [];
  const now = localDateTime();
  for (const w of wallets) {
    const old = await lockWallet(tx, ctx, Number(w.wlt_cd));
    if (old.paise <= 0) continue;
    const m = moved.find((x) => x.oldCd === Number(w.stud_cd))!;
    const [{ id }] = await rows<{ id: number }>(
      tx,
      sql`INSERT INTO wallet (stud_cd, wlt_amt, usr_full_nm, wlt_updt_dt, inst_cd, acdm_cd, crt_by)
          VALUES (${m.newCd}, '0.00', ${ctx.user.usr_full_nm}, ${now.date}, ${ctx.instCd}, ${to.acdm_cd}, ${ctx.user.usr_cd})
          RETURNING wlt_cd AS id`,
    );
    await writeAudit(tx, ctx, walletEntity, 'POST', Number(id), null, { wlt_cd: Number(id), stud_cd: m.newCd, acdm_cd: to.acdm_cd, wlt_amt: '0.00' });
    const out = await moveWallet(tx, ctx, { wltCd: old.wlt_cd, type: 'Carried Forward', paise: -old.paise, reason: `Carried forward to ${to.label}` });
    const into = await moveWallet(tx, ctx, { wltCd: Number(id), type: 'Carried Forward', paise: old.paise, reason: `Carried forward from ${from.label}` });
    // The undo gives the money back to the wallet named here, whatever became of the admission number.
    await tx.execute(sql`UPDATE wallet_transaction SET prmtn_cd = ${m.prmtnCd} WHERE wlt_txn_cd = ${out.wlt_txn_cd}`);
    await tx.execute(sql`UPDATE wallet_transaction SET prmtn_cd = ${m.prmtnCd}, src_wlt_cd = ${old.wlt_cd} WHERE wlt_txn_cd = ${into.wlt_txn_cd}`);
    carried.push({ stud_fs_nm: m.name, amount: fromPaise(old.paise) });
  }
  return carried;
}

/**
 * The run: under the target year's promotion lock the plan is made again from the stored rows, so of two runs
 * of one section the second finds the children there and writes nothing (409). One promotion row per section
 * with children moving.
 */
export async function promoteStudents(db: Db, ctx: RequestContext, input: PromoteStudentsInput): Promise<PromotionResult> {
  try {
    return await db.transaction(async (tx) => {
      await lockTargetYear(tx, ctx.instCd, input.to_acdm_cd);
      const plan = await planPromotion(tx, ctx, input);
      const chosenTwice = plan.moves.flatMap((m) => m.chosenTwice);
      if (chosenTwice.length) throw conflict(twice(chosenTwice, plan.to));
      const moving = plan.moves.reduce((a, m) => a + m.moving.length, 0);
      if (moving === 0) {
        const already = plan.moves.flatMap((m) => m.already);
        if (already.length) throw conflict(twice(already, plan.to));
        throw badRequest('Nobody is chosen to promote.');
      }
      const today = localDateTime().date;
      const promotions: PromotedSection[] = [];
      const moved: Moved[] = [];
      for (const m of plan.moves) {
        if (m.moving.length === 0) continue;
        const [{ id }] = await rows<{ id: number }>(
          tx,
          sql`INSERT INTO promotion (frm_cls_cd, frm_sec_cd, to_cls_cd, to_sec_cd, prmtn_stud_cnt, prmtn_crt_dt, crt_acdm_cd, to_acdm_cd,
                prmtn_roll, prmtn_sts, prmtn_by, inst_cd, crt_by)
              VALUES (${m.from.cls_cd}, ${m.from.sec_cd}, ${m.to.cls_cd}, ${m.to.sec_cd}, ${m.moving.length}, ${today}, ${plan.from.acdm_cd}, ${plan.to.acdm_cd},
                ${plan.roll}, 'Promoted', ${ctx.user.usr_full_nm.slice(0, 150)}, ${ctx.instCd}, ${ctx.user.usr_cd})
              RETURNING prmtn_cd AS id`,
        );
        const prmtnCd = Number(id);
        const students = await writeStudents(tx, ctx, m, plan.to, prmtnCd);
        await writeAudit(tx, ctx, promotionEntity, 'POST', prmtnCd, null, {
          prmtn_cd: prmtnCd,
          frm_sec_cd: m.from.sec_cd,
          to_sec_cd: m.to.sec_cd,
          crt_acdm_cd: plan.from.acdm_cd,
          to_acdm_cd: plan.to.acdm_cd,
          prmtn_stud_cnt: students.length,
          prmtn_roll: plan.roll,
        });
        const newByAdm = new Map(students.map((s) => [s.stud_adm_cd.toLowerCase(), s.stud_cd]));
        for (const s of m.moving) moved.push({ oldCd: s.stud_cd, newCd: newByAdm.get(s.stud_adm_cd.toLowerCase())!, name: s.stud_fs_nm, prmtnCd });
        promotions.push({ prmtn_cd: prmtnCd, from: sectionName(m.from), to: sectionName(m.to), prmtn_stud_cnt: students.length, students });
      }
      const carried = await carryWallets(tx, ctx, plan.from, plan.to, moved);
      return {
        frm_acdm: plan.from.label,
        to_acdm: plan.to.label,
        promotions,
        skipped: plan.moves.reduce((a, m) => a + m.already.length, 0),
        held_back: plan.moves.reduce((a, m) => a + m.held.length, 0),
        carried,
      };
    });
  } catch (err) {
    // The unique (institute, year, admission no) index: a child got into the year by another way meanwhile.
    const code = (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code;
    if (code === '23505') throw conflict('A child of this promotion is already in the target year. Nothing was promoted; preview again.');
    throw err;
  }
}
