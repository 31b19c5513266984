import type { RequestContext } from '../../access/request-context';
import { rows, sql, type DbOrTx } from '../../db/client';
import { badRequest, forbidden } from '../../lib/http-error';
import { sectionChoices } from '../section-choice/section-choice.service';
import type { PromoteStudentsInput, RollMode } from './promote-students.schema';

export interface YearInfo {
  acdm_cd: number;
  acdm_strt_yr: number;
  acdm_end_yr: number;
  acdm_sts: boolean;
  /** '2026-27' */
  label: string;
}

export interface SectionInfo {
  sec_cd: number;
  sec_nm: string;
  cls_cd: number;
  cls_nm: string;
  cls_odr: number | null;
}

export interface PlanStudent {
  stud_cd: number;
  stud_fs_nm: string;
  stud_adm_cd: string;
  stud_roll_nmb: number | null;
}

/** A child of the from-section who is in the target year already, and where. */
export interface AlreadyThere extends PlanStudent {
  there_cls_nm: string;
  there_sec_nm: string;
}

export interface MovePlan {
  from: SectionInfo;
  to: SectionInfo;
  /** Who moves, with the roll number they get in the new section. */
  moving: (PlanStudent & { new_roll: number | null })[];
  /** Already in the target year (the same admission number there): skipped. */
  already: AlreadyThere[];
  /** Left out on purpose (not among the chosen children). */
  held: PlanStudent[];
  /** Chosen by name but already in the target year: a run refuses them. */
  chosenTwice: AlreadyThere[];
}

export interface PlanLeaving {
  section: SectionInfo;
  students: PlanStudent[];
}

export interface PromotionPlan {
  from: YearInfo;
  to: YearInfo;
  roll: RollMode;
  moves: MovePlan[];
  /** Sections of the top class that nobody moves on: their children leave the school (TC). */
  leaving: PlanLeaving[];
}

export const yearLabel = (strt: number, end: number): string => `${strt}-${String(end % 100).padStart(2, '0')}`;

export const sectionName = (s: Pick<SectionInfo, 'cls_nm' | 'sec_nm'>): string => `${s.cls_nm} ${s.sec_nm}`;

/** The institute's academic years, newest first. */
export async function instituteYears(db: DbOrTx, instCd: number): Promise<YearInfo[]> {
  const list = await rows<Omit<YearInfo, 'label'>>(
    db,
    sql`SELECT acdm_cd, acdm_strt_yr, acdm_end_yr, acdm_sts FROM academic WHERE inst_cd = ${instCd} ORDER BY acdm_strt_yr DESC, acdm_cd DESC`,
  );
  return list.map((y) => ({ ...y, acdm_cd: Number(y.acdm_cd), acdm_strt_yr: Number(y.acdm_strt_yr), acdm_end_yr: Number(y.acdm_end_yr), label: yearLabel(Number(y.acdm_strt_yr), Number(y.acdm_end_yr)) }));
}

/** A closed year is an admin's only, as everywhere. */
export function mustBeOpen(ctx: RequestContext, y: YearInfo): void {
  if (!y.acdm_sts && !ctx.user.is_admin) throw forbidden(`The academic year ${y.label} is closed.`);
}

/** Under 'his students only': the sections mapped to the user in the year the children are promoted from. */
export async function ownSections(db: DbOrTx, ctx: RequestContext, fromAcdmCd: number): Promise<Set<number>> {
  return new Set((await sectionChoices(db, { ...ctx, acdmCd: fromAcdmCd })).map((s) => Number(s.sec_cd)));
}

/** Both years the institute's, open to the user, to after from. */
async function yearsOf(db: DbOrTx, ctx: RequestContext, input: PromoteStudentsInput): Promise<{ from: YearInfo; to: YearInfo }> {
  const years = await instituteYears(db, ctx.instCd);
  const pick = (cd: number, label: string): YearInfo => {
    const y = years.find((x) => x.acdm_cd === cd);
    if (!y) throw badRequest(`'${label}' is not a valid choice.`, [{ field: label === 'From Year' ? 'frm_acdm_cd' : 'to_acdm_cd', message: `'${label}' is not a valid choice.` }]);
    mustBeOpen(ctx, y);
    return y;
  };
  const from = pick(input.frm_acdm_cd, 'From Year');
  const to = pick(input.to_acdm_cd, 'To Year');
  if (to.acdm_strt_yr <= from.acdm_strt_yr) throw badRequest(`The year to promote into must come after ${from.label}.`, [{ field: 'to_acdm_cd', message: `The year to promote into must come after ${from.label}.` }]);
  return { from, to };
}

const byRegister = (a: PlanStudent, b: PlanStudent): number =>
  (a.stud_roll_nmb ?? Number.MAX_SAFE_INTEGER) - (b.stud_roll_nmb ?? Number.MAX_SAFE_INTEGER) || a.stud_fs_nm.localeCompare(b.stud_fs_nm) || a.stud_cd - b.stud_cd;
const byName = (a: PlanStudent, b: PlanStudent): number => a.stud_fs_nm.localeCompare(b.stud_fs_nm, 'en', { sensitivity: 'base' }) || a.stud_cd - b.stud_cd;

/**
 * Who moves where, computed from the stored rows: the same for the preview and, under the promotion lock,
 * for the run. Refuses (4xx) input that names something not there: a section twice or of another institute,
 * a child not in the from-section, a section not the user's under 'his students only'.
 */
export async function planPromotion(db: DbOrTx, ctx: RequestContext, input: PromoteStudentsInput): Promise<PromotionPlan> {
  const { from, to } = await yearsOf(db, ctx, input);
  const sections = await rows<SectionInfo>(
    db,
    sql`SELECT s.sec_cd, s.sec_nm, c.cls_cd, c.cls_nm, c.cls_odr FROM section s JOIN class c ON c.cls_cd = s.cls_cd WHERE s.inst_cd = ${ctx.instCd}`,
  );
  const secOf = new Map(sections.map((s) => [Number(s.sec_cd), { ...s, sec_cd: Number(s.sec_cd), cls_cd: Number(s.cls_cd), cls_odr: s.cls_odr === null ? null : Number(s.cls_odr) }]));
  const seen = new Set<number>();
  const pairs = input.moves.map((m) => {
    const f = secOf.get(m.frm_sec_cd);
    if (!f) throw badRequest("'From Section' is not a valid choice.");
    if (seen.has(f.sec_cd)) throw badRequest(`Section ${sectionName(f)} is listed twice.`);
    seen.add(f.sec_cd);
    const t = secOf.get(m.to_sec_cd);
    if (!t) throw badRequest("'To Section' is not a valid choice.");
    return { m, f, t };
  });
  if (ctx.dataChk) {
    const own = await ownSections(db, ctx, from.acdm_cd);
    const foreign = pairs.find((p) => !own.has(p.f.sec_cd));
    if (foreign) throw forbidden('You can only promote students of your own sections.');
  }

  // The top class: the highest class order among classes with sections; its other sections leave.
  const ordered = [...secOf.values()].filter((s) => s.cls_odr !== null);
  const topOdr = ordered.length ? Math.max(...ordered.map((s) => s.cls_odr!)) : null;
  const leavingSecs = topOdr === null ? [] : ordered.filter((s) => s.cls_odr === topOdr && !seen.has(s.sec_cd));

  const wanted = [...seen, ...leavingSecs.map((s) => s.sec_cd)];
  const studs = await rows<PlanStudent & { sec_cd: number }>(
    db,
    sql`SELECT stud_cd, stud_fs_nm, stud_adm_cd, stud_roll_nmb, sec_cd FROM student
        WHERE inst_cd = ${ctx.instCd} AND acdm_cd = ${from.acdm_cd} AND sec_cd IN (${sql.join(wanted.map((w) => sql`${w}`), sql`, `)})`,
  );
  const inSection = new Map<number, PlanStudent[]>();
  for (const s of studs) {
    const p: PlanStudent = { stud_cd: Number(s.stud_cd), stud_fs_nm: s.stud_fs_nm, stud_adm_cd: s.stud_adm_cd, stud_roll_nmb: s.stud_roll_nmb === null ? null : Number(s.stud_roll_nmb) };
    inSection.set(Number(s.sec_cd), [...(inSection.get(Number(s.sec_cd)) ?? []), p]);
  }
  const movingSecs = new Set(seen);
  const candidates = studs.filter((s) => movingSecs.has(Number(s.sec_cd)));
  const there = candidates.length
    ? await rows<{ adm: string; cls_nm: string; sec_nm: string }>(
        db,
        sql`SELECT lower(s.stud_adm_cd) AS adm, c.cls_nm, x.sec_nm FROM student s
            JOIN class c ON c.cls_cd = s.cls_cd JOIN section x ON x.sec_cd = s.sec_cd
            WHERE s.inst_cd = ${ctx.instCd} AND s.acdm_cd = ${to.acdm_cd}
              AND lower(s.stud_adm_cd) IN (${sql.join(candidates.map((c) => sql`${c.stud_adm_cd.toLowerCase()}`), sql`, `)})`,
      )
    : [];
  const thereOf = new Map(there.map((t) => [t.adm, t]));

  // Renumbering continues after the roll numbers the target section already has in the target year.
  const targets = [...new Set(pairs.map((p) => p.t.sec_cd))];
  const lastRoll = new Map<number, number>();
  if (input.roll === 'Renumbered by name') {
    const tops = await rows<{ sec_cd: number; top: number | null }>(
      db,
      sql`SELECT sec_cd, max(stud_roll_nmb) AS top FROM student WHERE inst_cd = ${ctx.instCd} AND acdm_cd = ${to.acdm_cd}
            AND sec_cd IN (${sql.join(targets.map((t) => sql`${t}`), sql`, `)}) GROUP BY sec_cd`,
    );
    for (const t of tops) lastRoll.set(Number(t.sec_cd), Number(t.top ?? 0));
  }

  const moves: MovePlan[] = pairs.map(({ m, f, t }) => {
    const all = (inSection.get(f.sec_cd) ?? []).sort(byRegister);
    if (m.stud_cds) {
      for (const id of m.stud_cds) {
        if (!all.some((s) => s.stud_cd === id)) {
          const name = studs.find((s) => Number(s.stud_cd) === id)?.stud_fs_nm ?? `Student ${id}`;
          throw badRequest(`${name} is not in ${sectionName(f)} in ${from.label}.`);
        }
      }
    }
    const chosen = m.stud_cds ? new Set(m.stud_cds) : null;
    const already: AlreadyThere[] = [];
    const held: PlanStudent[] = [];
    const chosenTwice: AlreadyThere[] = [];
    const moving: PlanStudent[] = [];
    for (const s of all) {
      const hit = thereOf.get(s.stud_adm_cd.toLowerCase());
      if (hit) {
        const a = { ...s, there_cls_nm: hit.cls_nm, there_sec_nm: hit.sec_nm };
        already.push(a);
        if (chosen?.has(s.stud_cd)) chosenTwice.push(a);
      } else if (chosen && !chosen.has(s.stud_cd)) held.push(s);
      else moving.push(s);
    }
    let numbered: (PlanStudent & { new_roll: number | null })[];
    if (input.roll === 'Renumbered by name') {
      let n = lastRoll.get(t.sec_cd) ?? 0;
      numbered = [...moving].sort(byName).map((s) => ({ ...s, new_roll: ++n }));
      lastRoll.set(t.sec_cd, n);
    } else numbered = moving.map((s) => ({ ...s, new_roll: s.stud_roll_nmb }));
    return { from: f, to: t, moving: numbered, already, held, chosenTwice };
  });
  const leaving = leavingSecs
    .map((s) => ({ section: s, students: (inSection.get(s.sec_cd) ?? []).sort(byRegister) }))
    .filter((l) => l.students.length > 0)
    .sort((a, b) => sectionName(a.section).localeCompare(sectionName(b.section)));
  return { from, to, roll: input.roll, moves, leaving };
}
