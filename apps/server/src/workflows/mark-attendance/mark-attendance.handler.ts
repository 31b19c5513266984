import { findPage } from '@campus/entities/pages';
import { entity } from '@campus/entities/registry';
import type { FastifyInstance } from 'fastify';
import { mustCtx, requireButton, type RequestContext } from '../../access/request-context';
import { rows, sql, type Db, type DbOrTx } from '../../db/client';
import { writeAudit } from '../../engine/audit';
import { withDbErrors } from '../../engine/crud.service';
import { localDateTime } from '../../lib/clock';
import { badRequest } from '../../lib/http-error';
import { requireYear, sectionChoices, sectionOfClass, type SectionChoice } from '../section-choice/section-choice.service';
import { recomputeDaySummaries, sectionDayCounts } from './attendance-summary.service';
import { saveSheetSchema, sheetQuerySchema, type AttendanceStatus } from './mark-attendance.schema';

const attendance = entity('student_attendance');
const attendancePage = [findPage('student', 'attendance')!];
const OWN_SECTIONS_ONLY = 'You can only mark the attendance of your own sections.';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const firstIssue = (e: { issues: { message: string }[] }): string => e.issues[0]?.message ?? 'Invalid input.';
const isSunday = (day: string): boolean => new Date(`${day}T00:00:00Z`).getUTCDay() === 0;

/**
 * Why a day cannot be marked, or null: a future day (nobody knows yet who will come), a day outside the
 * request's academic year (its rows would belong to another year), a holiday of the year's list. A Sunday is
 * allowed (a working Sunday happens) and only warned about by the sheet.
 */
async function dayRefusal(db: DbOrTx, ctx: RequestContext, acdmCd: number, day: string): Promise<string | null> {
  if (day > localDateTime().date) return 'Attendance cannot be marked for a future date.';
  const [y] = await rows<{ acdm_strt_yr: number; acdm_strt_mn: string; acdm_end_yr: number; acdm_end_mn: string }>(
    db,
    sql`SELECT acdm_strt_yr, acdm_strt_mn, acdm_end_yr, acdm_end_mn FROM academic WHERE acdm_cd = ${acdmCd}`,
  );
  if (y) {
    const sm = MONTHS.indexOf(y.acdm_strt_mn);
    const em = MONTHS.indexOf(y.acdm_end_mn);
    const from = new Date(Date.UTC(y.acdm_strt_yr, sm, 1)).toISOString().slice(0, 10);
    const to = new Date(Date.UTC(y.acdm_end_yr, em + 1, 0)).toISOString().slice(0, 10);
    if (sm >= 0 && em >= 0 && (day < from || day > to)) {
      return `${day} is outside the academic year ${y.acdm_strt_yr}-${String(y.acdm_end_yr % 100).padStart(2, '0')}.`;
    }
  }
  const [h] = await rows<{ hly_nm: string }>(
    db,
    sql`SELECT hly_nm FROM holiday WHERE inst_cd = ${ctx.instCd} AND acdm_cd = ${acdmCd}
          AND hly_frm_dt <= ${day} AND hly_to_dt >= ${day} ORDER BY hly_frm_dt LIMIT 1`,
  );
  if (h) return `${day} is a holiday (${h.hly_nm}): attendance is not marked on holidays.`;
  return null;
}

interface SheetStudent {
  stud_cd: number;
  stud_fs_nm: string;
  stud_adm_cd: string;
  stud_roll_nmb: number | null;
  saved_sts: AttendanceStatus | null;
  saved_rmks: string | null;
  on_leave: boolean;
}

export interface SheetRow {
  stud_cd: number;
  stud_fs_nm: string;
  stud_adm_cd: string;
  stud_roll_nmb: number | null;
  status: AttendanceStatus;
  remarks: string;
  on_leave: boolean;
  saved: boolean;
}

const ON_LEAVE = 'On leave';

/** Students of a section this year, register order, with the day's saved status or the sheet's default. */
async function sheetRows(db: DbOrTx, ctx: RequestContext, acdmCd: number, sec: SectionChoice, day: string): Promise<SheetRow[]> {
  const found = await rows<SheetStudent>(
    db,
    sql`SELECT s.stud_cd, s.stud_fs_nm, s.stud_adm_cd, s.stud_roll_nmb,
               a.stud_attn_sts AS saved_sts, a.stud_attn_rmks AS saved_rmks,
               EXISTS (SELECT 1 FROM student_leave l WHERE l.stud_cd = s.stud_cd AND l.inst_cd = s.inst_cd AND l.acdm_cd = s.acdm_cd
                         AND l.stud_leav_sts = 'Approved' AND l.stud_leav_frm_dt <= ${day} AND l.stud_leav_to_dt >= ${day}) AS on_leave
        FROM student s
        LEFT JOIN student_attendance a ON a.stud_cd = s.stud_cd AND a.inst_cd = s.inst_cd AND a.acdm_cd = s.acdm_cd AND a.stud_attn_dt = ${day}
        WHERE s.inst_cd = ${ctx.instCd} AND s.acdm_cd = ${acdmCd} AND s.cls_cd = ${sec.cls_cd} AND s.sec_cd = ${sec.sec_cd}
        ORDER BY s.stud_roll_nmb NULLS LAST, s.stud_fs_nm, s.stud_cd`,
  );
  return found.map((r) => {
    const saved = r.saved_sts !== null;
    // An approved leave makes the new sheet's default 'Absent'; a saved mark always wins over a default.
    const status: AttendanceStatus = saved ? r.saved_sts! : r.on_leave ? 'Absent' : 'Present';
    const remarks = saved ? (r.saved_rmks ?? '') : r.on_leave ? ON_LEAVE : '';
    return { stud_cd: r.stud_cd, stud_fs_nm: r.stud_fs_nm, stud_adm_cd: r.stud_adm_cd, stud_roll_nmb: r.stud_roll_nmb, status, remarks, on_leave: !!r.on_leave, saved };
  });
}

export function registerMarkAttendanceRoutes(app: FastifyInstance, db: Db): void {
  const tags = [attendance.label];
  const page = (button?: string) => ({ access: { kind: 'page' as const, pages: attendancePage, button } });

  app.get('/api/student_attendance/sections', { config: page(), schema: { tags, summary: 'Sections whose attendance the user may mark' } }, async (req) =>
    sectionChoices(db, mustCtx(req)),
  );

  app.get('/api/student_attendance/sheet', { config: page(), schema: { tags, summary: "A section's attendance sheet for one day" } }, async (req) => {
    const ctx = mustCtx(req);
    const q = sheetQuerySchema.safeParse(req.query);
    if (!q.success) throw badRequest(firstIssue(q.error));
    const acdmCd = requireYear(ctx);
    const sec = await sectionOfClass(db, ctx, q.data.cls_cd, q.data.sec_cd, OWN_SECTIONS_ONLY);
    const students = await sheetRows(db, ctx, acdmCd, sec, q.data.date);
    const [marker] = await rows<{ by: string | null }>(
      db,
      sql`SELECT stud_attn_mrkd_by AS by FROM student_attendance
          WHERE inst_cd = ${ctx.instCd} AND acdm_cd = ${acdmCd} AND sec_cd = ${sec.sec_cd} AND stud_attn_dt = ${q.data.date}
          ORDER BY coalesce(updt_dt, crt_dt) DESC LIMIT 1`,
    );
    return {
      ...sec,
      date: q.data.date,
      today: localDateTime().date,
      sunday: isSunday(q.data.date),
      refusal: await dayRefusal(db, ctx, acdmCd, q.data.date),
      saved: students.some((s) => s.saved),
      marked_by: marker?.by ?? null,
      rows: students,
    };
  });

  app.post('/api/student_attendance/sheet', { config: page('create'), schema: { tags, summary: "Save a section's attendance for one day" } }, async (req) => {
    const ctx = mustCtx(req);
    const parsed = saveSheetSchema.safeParse(req.body);
    if (!parsed.success) throw badRequest(firstIssue(parsed.error));
    const input = parsed.data;
    const acdmCd = requireYear(ctx);
    const sec = await sectionOfClass(db, ctx, input.cls_cd, input.sec_cd, OWN_SECTIONS_ONLY);
    const refusal = await dayRefusal(db, ctx, acdmCd, input.date);
    if (refusal) throw badRequest(refusal);
    const ids = input.rows.map((r) => r.stud_cd);
    const twice = ids.find((id, i) => ids.indexOf(id) !== i);
    if (twice !== undefined) throw badRequest(`Student ${twice} is on the sheet twice.`);
    const scope = { instCd: ctx.instCd, acdmCd, usrCd: ctx.user.usr_cd };
    const idList = sql.join(ids.map((id) => sql`${id}`), sql`, `);

    return withDbErrors(() =>
      db.transaction(async (tx) => {
        // One save of a day at a time per institute: two sheets counting the same day (a student moved between
        // sections, two teachers of one section) must not each miss the other's uncommitted rows.
        const dayNo = Math.round(Date.parse(`${input.date}T00:00:00Z`) / 86_400_000);
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${ctx.instCd}::int, ${dayNo}::int)`);

        const students = await rows<{ stud_cd: number; stud_fs_nm: string; cls_cd: number; sec_cd: number }>(
          tx,
          sql`SELECT stud_cd, stud_fs_nm, cls_cd, sec_cd FROM student
              WHERE inst_cd = ${ctx.instCd} AND acdm_cd = ${acdmCd} AND stud_cd IN (${idList})`,
        );
        for (const id of ids) {
          const s = students.find((x) => x.stud_cd === id);
          if (!s || s.cls_cd !== sec.cls_cd || s.sec_cd !== sec.sec_cd) {
            throw badRequest(`${s ? s.stud_fs_nm : `Student ${id}`} is not a student of ${sec.cls_nm} ${sec.sec_nm} this year.`);
          }
        }

        const before = await rows<{ stud_cd: number; sec_cd: number; stud_attn_sts: string; stud_attn_rmks: string | null }>(
          tx,
          sql`SELECT stud_cd, sec_cd, stud_attn_sts, stud_attn_rmks FROM student_attendance
              WHERE inst_cd = ${ctx.instCd} AND acdm_cd = ${acdmCd} AND stud_attn_dt = ${input.date}
                AND (sec_cd = ${sec.sec_cd} OR stud_cd IN (${idList}))`,
        );
        // Marking (and correcting) today's sheet is 'create'; changing an earlier day already saved is a
        // correction of the register, which needs 'edit'.
        if (before.some((b) => b.sec_cd === sec.sec_cd) && input.date < localDateTime().date) requireButton(ctx, 'edit');

        const by = ctx.user.usr_full_nm.slice(0, 150);
        const values = input.rows.map(
          (r) =>
            sql`(${ctx.instCd}::int, ${acdmCd}::int, ${r.stud_cd}::int, ${input.date}::date, ${sec.cls_cd}::int, ${sec.sec_cd}::int, ${r.status}, ${r.remarks}, ${by}, ${ctx.user.usr_cd}::int)`,
        );
        await tx.execute(sql`
          INSERT INTO student_attendance
            (inst_cd, acdm_cd, stud_cd, stud_attn_dt, cls_cd, sec_cd, stud_attn_sts, stud_attn_rmks, stud_attn_mrkd_by, crt_by)
          VALUES ${sql.join(values, sql`, `)}
          ON CONFLICT (inst_cd, acdm_cd, stud_cd, stud_attn_dt) DO UPDATE SET
            cls_cd = EXCLUDED.cls_cd,
            sec_cd = EXCLUDED.sec_cd,
            stud_attn_sts = EXCLUDED.stud_attn_sts,
            stud_attn_rmks = EXCLUDED.stud_attn_rmks,
            stud_attn_mrkd_by = EXCLUDED.stud_attn_mrkd_by,
            row_ver = student_attendance.row_ver + 1,
            updt_by = EXCLUDED.crt_by,
            updt_dt = now()
          WHERE (student_attendance.cls_cd, student_attendance.sec_cd, student_attendance.stud_attn_sts, student_attendance.stud_attn_rmks)
                IS DISTINCT FROM (EXCLUDED.cls_cd, EXCLUDED.sec_cd, EXCLUDED.stud_attn_sts, EXCLUDED.stud_attn_rmks)`);

        // A student marked here who sat in another section's sheet of the same day leaves that count too.
        const sections = [...new Set([sec.sec_cd, ...before.map((b) => b.sec_cd)])];
        await recomputeDaySummaries(tx, scope, [input.date], sections);
        const counts = await sectionDayCounts(tx, scope, sec.sec_cd, input.date);
        const changed = input.rows.filter((r) => {
          const b = before.find((x) => x.stud_cd === r.stud_cd);
          return !b || b.sec_cd !== sec.sec_cd || b.stud_attn_sts !== r.status || (b.stud_attn_rmks ?? null) !== r.remarks;
        }).length;
        await writeAudit(
          tx,
          ctx,
          attendance,
          'POST',
          `${sec.sec_cd}/${input.date}`,
          before.length ? { rows: before } : null,
          { cls_cd: sec.cls_cd, sec_cd: sec.sec_cd, date: input.date, rows: input.rows, counts },
        );
        return { cls_cd: sec.cls_cd, sec_cd: sec.sec_cd, date: input.date, saved: input.rows.length, changed, ...counts };
      }),
    );
  });
}
