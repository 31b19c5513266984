import type { AnyEntity } from '@campus/entities/define';
import { pagePath, pagesOfEntity, type PageDef } from '@campus/entities/pages';
import { entity } from '@campus/entities/registry';
import { and, asc, gte, inArray, lte, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { effectivePermissions, type EffectivePermission } from '../../access/permission';
import { mustCtx, type RequestContext } from '../../access/request-context';
import type { Db } from '../../db/client';
import { dyn } from '../../db/dyn-table';
import { entityTable } from '../../db/tables';
import { createRow, deleteRows, getRow, updateRow } from '../../engine/crud.service';
import { scopeWhere } from '../../engine/list-query';
import { badRequest } from '../../lib/http-error';
import type { ScheduleEvent, ScheduleKind } from '@campus/entities/features/schedule-event.entity';
import { MAX_RANGE_DAYS, rangeDays } from './schedule.schema';

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

const isRealDate = (s: string): boolean => DATE_RE.test(s) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s;

/** from and to (both inclusive, YYYY-MM-DD), at most MAX_RANGE_DAYS apart: a month view asks 6 weeks. */
export function parseRange(query: Record<string, unknown>): { from: string; to: string } {
  const from = typeof query.from === 'string' ? query.from.trim() : '';
  const to = typeof query.to === 'string' ? query.to.trim() : '';
  if (!isRealDate(from) || !isRealDate(to)) throw badRequest("'from' and 'to' must be dates (YYYY-MM-DD).");
  if (to < from) throw badRequest("'to' must not be before 'from'.");
  if (rangeDays(from, to) > MAX_RANGE_DAYS) throw badRequest(`The schedule shows at most ${MAX_RANGE_DAYS} days at a time: choose a shorter range.`);
  return { from, to };
}

const asDate = (v: unknown): string => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v ?? '').slice(0, 10));
const asTime = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v).slice(0, 8));

/**
 * One source of the schedule: an entity's rows whose [start, end] date range meets the asked range.
 * `everyone`: shown to every signed-in user of the institute (holidays, circulars are announcements); the
 * others need the user's permission on the entity's page, whose 'his students only' narrows them through the
 * entity's own ownership, or (exams) the ownership alone: a teacher without the page sees their sections'.
 */
interface Source {
  kind: Exclude<ScheduleKind, 'own'>;
  entity: string;
  start: string;
  end: string;
  title: (r: Record<string, unknown>) => string;
  type: (r: Record<string, unknown>) => string;
  /** Extra columns read for title/type (a link's display is not on the row's own table). */
  extra?: string[];
  access: 'everyone' | 'page' | 'page-or-own';
}

const sources: readonly Source[] = [
  { kind: 'holiday', entity: 'holiday', start: 'hly_frm_dt', end: 'hly_to_dt', title: (r) => String(r.hly_nm), type: (r) => String(r.hly_typ ?? ''), extra: ['hly_nm', 'hly_typ'], access: 'everyone' },
  { kind: 'exam', entity: 'exam', start: 'exm_strt_dt', end: 'exm_end_dt', title: (r) => String(r.exm_nm), type: () => 'Exam', extra: ['exm_nm', 'exmtyp_cd'], access: 'page-or-own' },
  { kind: 'fee_due', entity: 'fee_group', start: 'fee_grp_fee_exp_dt', end: 'fee_grp_fee_exp_dt', title: (r) => String(r.fee_grp_nm), type: () => 'Fee Due', extra: ['fee_grp_nm'], access: 'page' },
  { kind: 'circular', entity: 'circular', start: 'crlr_dt', end: 'crlr_dt', title: (r) => String(r.crlr_sub), type: () => 'Circular', extra: ['crlr_sub'], access: 'everyone' },
];

/** The first page of the entity the user may open, and its permission. */
function pageOf(e: AnyEntity, perms: Map<string, EffectivePermission>): { pg: PageDef; perm: EffectivePermission } | null {
  for (const pg of pagesOfEntity(e.name)) {
    const perm = perms.get(`${pg.module}/${pg.page}`);
    if (perm?.usr_prms_is_alw) return { pg, perm };
  }
  return null;
}

async function sourceEvents(db: Db, ctx: RequestContext, perms: Map<string, EffectivePermission>, src: Source, from: string, to: string): Promise<ScheduleEvent[]> {
  const e = entity(src.entity);
  const held = pageOf(e, perms);
  let dataChk: boolean;
  if (held) dataChk = held.perm.usr_need_data_chk && e.ownership !== undefined;
  else if (src.access === 'everyone') dataChk = false;
  else if (src.access === 'page-or-own') dataChk = true;
  else return [];
  const t = dyn(entityTable(e.name).table);
  const cols = Object.fromEntries([e.key, src.start, src.end, ...(src.extra ?? [])].map((c) => [c, t[c]]));
  const where: (SQL | undefined)[] = [scopeWhere(e, t, { ...ctx, dataChk }), lte(t[src.start], to), gte(t[src.end], from)];
  const found = await db
    .select(cols)
    .from(t)
    .where(and(...where))
    .orderBy(asc(t[src.start]), asc(t[e.key]))
    .limit(2000);
  if (src.kind === 'exam') return examEntries(db, found, held ? `/${pagePath(held.pg)}` : null);
  // A row opens in its page's view mode only for a user who may open that page.
  const base = held ? `/${pagePath(held.pg)}/view/` : null;
  return found.slice(0, 500).map((r) => ({
    id: `${src.kind}-${String(r[e.key])}`,
    kind: src.kind,
    key: Number(r[e.key]),
    keys: [Number(r[e.key])],
    detail: null,
    title: src.title(r),
    type: src.type(r),
    start: asDate(r[src.start]),
    end: asDate(r[src.end]),
    allDay: true,
    startTime: null,
    endTime: null,
    link: base ? `${base}${String(r[e.key])}` : null,
    rowVer: null,
  }));
}

/**
 * Exams as the office plans them: one entry per exam type and dates, whatever the number of sections
 * sitting it. One section's opens its view page; several open the exam list filtered by the type (the list
 * applies the user's own scope again).
 */
async function examEntries(db: Db, found: Record<string, unknown>[], page: string | null): Promise<ScheduleEvent[]> {
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const r of found) {
    const k = `${String(r.exmtyp_cd)}|${asDate(r.exm_strt_dt)}|${asDate(r.exm_end_dt)}`;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  const typeCds = [...new Set(found.map((r) => Number(r.exmtyp_cd)))];
  const tt = dyn(entityTable('exam_type').table);
  const names = new Map(
    typeCds.length ? (await db.select({ cd: tt.exmtyp_cd, nm: tt.exmtyp_nm }).from(tt).where(inArray(tt.exmtyp_cd, typeCds))).map((x) => [Number(x.cd), String(x.nm)]) : [],
  );
  return [...groups.values()].map((rs) => {
    const first = rs[0];
    const keys = rs.map((r) => Number(r.exm_cd));
    const one = rs.length === 1;
    return {
      id: one ? `exam-${keys[0]}` : `exam-type-${String(first.exmtyp_cd)}-${asDate(first.exm_strt_dt)}`,
      kind: 'exam' as const,
      key: keys[0],
      keys,
      detail: one ? null : rs.map((r) => String(r.exm_nm)).join(', '),
      title: one ? String(first.exm_nm) : (names.get(Number(first.exmtyp_cd)) ?? String(first.exm_nm)),
      type: 'Exam',
      start: asDate(first.exm_strt_dt),
      end: asDate(first.exm_end_dt),
      allDay: true,
      startTime: null,
      endTime: null,
      link: page === null ? null : one ? `${page}/view/${keys[0]}` : `${page}/table?f_exmtyp_cd=${String(first.exmtyp_cd)}`,
      rowVer: null,
    };
  });
}

/**
 * The user's own entries go through the engine with 'his students only' forced on (ownership 'creator'):
 * get, update and delete then find only the user's rows, so another user's entry is 404, never changed.
 */
const ownEventPerm: EffectivePermission = {
  usr_prms_mdl: 'schedule',
  usr_prms_page: 'table',
  usr_prms_pth_url: 'sms/schedule/table',
  usr_prms_is_alw: true,
  usr_prms_btns: 'view,create,edit,delete',
  usr_need_data_chk: true,
};
// No page of the menu holds these rows (schedule is an open page, not a module): the history names the entity alone.
const ownCtx = (ctx: RequestContext): RequestContext => ({ ...ctx, dataChk: true, page: null, perm: ownEventPerm });

function ownEvent(r: Record<string, unknown>): ScheduleEvent {
  const startTime = asTime(r.sch_evt_frm_tm);
  const endTime = asTime(r.sch_evt_to_tm);
  return {
    id: `own-${String(r.sch_evt_cd)}`,
    kind: 'own',
    key: Number(r.sch_evt_cd),
    keys: [Number(r.sch_evt_cd)],
    detail: null,
    title: String(r.sch_evt_ttl),
    type: 'Own',
    start: asDate(r.sch_evt_frm_dt),
    end: asDate(r.sch_evt_to_dt),
    allDay: startTime === null,
    startTime,
    endTime,
    link: null,
    rowVer: Number(r.row_ver),
    description: r.sch_evt_dscr === null || r.sch_evt_dscr === undefined ? null : String(r.sch_evt_dscr),
  };
}

async function ownEvents(db: Db, ctx: RequestContext, from: string, to: string): Promise<ScheduleEvent[]> {
  const e = entity('schedule_event');
  const t = dyn(entityTable(e.name).table);
  const found = await db
    .select()
    .from(t)
    .where(and(scopeWhere(e, t, ownCtx(ctx)), lte(t.sch_evt_frm_dt, to), gte(t.sch_evt_to_dt, from)))
    .orderBy(asc(t.sch_evt_frm_dt), asc(t.sch_evt_frm_tm), asc(t.sch_evt_cd))
    .limit(500);
  return found.map(ownEvent);
}

/** Both times or neither (all day); on one day the end comes after the start. */
function checkTimes(r: Record<string, unknown>): void {
  const from = asTime(r.sch_evt_frm_tm);
  const to = asTime(r.sch_evt_to_tm);
  if ((from === null) !== (to === null)) throw badRequest('Give both the from and to times, or neither for an all-day entry.');
  if (from !== null && to !== null && asDate(r.sch_evt_frm_dt) === asDate(r.sch_evt_to_dt) && to.padEnd(8, ':00') <= from.padEnd(8, ':00')) {
    throw badRequest("'To Time' must be after 'From Time'.");
  }
}

const idOf = (params: unknown): number => {
  const raw = (params as { id?: string }).id ?? '';
  if (!/^\d{1,9}$/.test(raw) || Number(raw) <= 0) throw badRequest('The entry id must be a whole number.');
  return Number(raw);
};

const asObject = (body: unknown): Record<string, unknown> => (body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {});

/**
 * The schedule (sms/schedule/table): open to every signed-in user, so its routes ask only for a signed-in
 * user; what each source shows is decided per source from the user's own permissions and ownership above.
 */
export function registerScheduleRoutes(app: FastifyInstance, db: Db): void {
  const signedIn = { access: { kind: 'signed-in' as const } };
  const tags = ['Schedule'];
  const e = (): AnyEntity => entity('schedule_event');

  app.get('/api/schedule/', { config: signedIn, schema: { tags, summary: 'Holidays, exams, fee due dates, circulars and own entries of a date range' } }, async (req) => {
    const ctx = mustCtx(req);
    const { from, to } = parseRange(req.query as Record<string, unknown>);
    const perms = await effectivePermissions(db, ctx.user.usr_cd, ctx.instCd, ctx.user.is_admin);
    const events: ScheduleEvent[] = [];
    for (const src of sources) events.push(...(await sourceEvents(db, ctx, perms, src, from, to)));
    events.push(...(await ownEvents(db, ctx, from, to)));
    return { from, to, events };
  });

  app.post('/api/schedule/event/', { config: signedIn, schema: { tags, summary: 'Add an own schedule entry' } }, async (req, reply) => {
    const ctx = mustCtx(req);
    const body = asObject(req.body);
    checkTimes(body);
    const row = await createRow(db, e(), ownCtx(ctx), body);
    return reply.code(201).send(ownEvent(row));
  });

  app.put('/api/schedule/event/:id', { config: signedIn, schema: { tags, summary: 'Move or change an own schedule entry (row_ver required)' } }, async (req) => {
    const ctx = mustCtx(req);
    const id = idOf(req.params);
    const body = asObject(req.body);
    const before = await getRow(db, e(), ownCtx(ctx), id);
    checkTimes({ ...before, ...body });
    return ownEvent(await updateRow(db, e(), ownCtx(ctx), id, body));
  });

  app.delete('/api/schedule/event/:id', { config: signedIn, schema: { tags, summary: 'Delete an own schedule entry' } }, async (req) => {
    const ctx = mustCtx(req);
    const id = idOf(req.params);
    await deleteRows(db, e(), ownCtx(ctx), { primids: [id] });
    return { deleted: 1 };
  });
}
