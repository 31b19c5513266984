import type { AnyEntity } from '@campus/entities/define';
import { entity } from '@campus/entities/registry';
import { rows, sql, type Db } from '../db/client';
import { auditInsertFrom, writeAudit } from '../engine/audit';
import { HttpError } from '../lib/http-error';
import type { RealtimeEvents } from '../realtime-events';
import { storeBulkReadAlarm } from '../workflows/notification-rules/security-alert.service';
import { settingNumber } from '../workflows/setting/institute-setting';
import type { RequestContext } from './request-context';

/** A blocked user still gets the first page of a list at a size the grid offers (25-200): work goes on, bulk reading stops. */
export const BLOCKED_MAX_FIRST_PAGE = 200;

/** The grid's usual page size: a first page up to this size is browsing, not bulk reading. */
const GRID_PAGE = 50;

/** The method of the action-history row written when a user crosses the budget (the security event). */
export const BULK_READ_METHOD = 'BULK_READ';

export const overBudgetMessage = (read: number, budget: number): string =>
  `You have read ${read.toLocaleString('en-US')} rows in the last hour, over the limit of ${budget.toLocaleString('en-US')}. ` +
  'Ask an administrator to lift the block (Dashboard > Security events); the first page of each list still opens.';

export interface ReadBudgetOptions {
  /** Rows held in memory per user before they are written (the write also learns of a block set elsewhere). */
  flushRows: number;
  /** The longest rows stay in memory before they are written. */
  flushMs: number;
}

interface Pending {
  rows: number;
  /** The request that read them: institute (the budget is the institute's setting) and who, for the event. */
  ctx: RequestContext;
  entity: AnyEntity;
}

const employee = entity('employee');

/**
 * Rows read per user per hour, kept in read_budget so every app instance on the database adds to the same
 * count. A list answer adds its rows in memory; they are written (one UPSERT) when the user has
 * `flushRows` unwritten, when the last write is `flushMs` old, or by the timer: a grid read of 50 rows costs
 * no statement, an export of 500-row pages one every other page, and past half the budget every answer is
 * written. The hour starts at the first read after the
 * last one ended. Crossing the budget sets the block once (a conditional UPDATE, so two instances crossing
 * together record one event), writes the event to action history and a bell notification for each of the
 * institute's administrators (but the reader) in the same transaction, then sends them updateNotification;
 * the block holds until an administrator lifts it.
 */
export class ReadBudget {
  private readonly pending = new Map<number, Pending>();
  private readonly lastWrite = new Map<number, number>();
  /** Each user's count as the last write returned it (what other instances had written by then). */
  private readonly known = new Map<number, number>();
  /** Users this instance has seen blocked: their refused requests look again in the table (a lift elsewhere). */
  private readonly blocked = new Set<number>();
  private readonly budgets = new Map<number, { v: number; at: number }>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    private readonly opts: ReadBudgetOptions,
    /** How the administrators' bells learn of an alarm; set later by the app (tellAdminsThrough) when null. */
    private events: RealtimeEvents | null = null,
  ) {
    this.timer = setInterval(() => void this.flushAll().catch(() => undefined), opts.flushMs);
    this.timer.unref();
  }

  /** Refuses a bulk read (a page after the first, or a big first page) while the user is blocked. */
  async check(ctx: RequestContext, page: number, size: number): Promise<void> {
    const usr = ctx.user.usr_cd;
    if (!this.blocked.has(usr)) return;
    if (page === 1 && size <= BLOCKED_MAX_FIRST_PAGE) return;
    const [b] = await rows<{ rdb_blocked_rows: number | null; rdb_blocked_at: string | null }>(
      this.db,
      sql`SELECT rdb_blocked_rows, rdb_blocked_at FROM read_budget WHERE usr_cd = ${usr}`,
    );
    if (!b?.rdb_blocked_at) {
      this.blocked.delete(usr);
      return;
    }
    throw new HttpError(429, overBudgetMessage(b.rdb_blocked_rows ?? 0, await this.budgetOf(ctx.instCd)));
  }

  /** Adds a list answer's rows; writes them when enough are held or the last write is old. */
  async count(ctx: RequestContext, e: AnyEntity, n: number, page: number, size: number): Promise<void> {
    if (n <= 0) return;
    const usr = ctx.user.usr_cd;
    const p = this.pending.get(usr);
    const held = (p?.rows ?? 0) + n;
    this.pending.set(usr, { rows: held, ctx, entity: e });
    // A user's first grid page here costs no statement (the list path is 3 statements): the timer writes it.
    // Paging on, or a big page, is bulk reading: the first such answer is written at once, and the write
    // tells this instance the count so far (other instances' reads, a block) and the budget.
    const bulk = page > 1 || size > GRID_PAGE;
    if (!this.lastWrite.has(usr)) this.lastWrite.set(usr, Date.now());
    const last = this.lastWrite.get(usr) ?? 0;
    const unknown = bulk && !this.known.has(usr);
    // Past half the budget (as the last write knew it) every answer is written: the crossing is seen at once,
    // and a block set by another instance one answer later. Only heavy readers pay the statement.
    const known = this.known.get(usr);
    const budget = this.budgets.get(ctx.instCd)?.v;
    const near = known !== undefined && budget !== undefined && (known + held) * 2 > budget;
    if (unknown || near || held >= this.opts.flushRows || Date.now() - last >= this.opts.flushMs) await this.flush(usr);
  }

  /** Writes every user's held rows (the timer, and the app's close). */
  async flushAll(): Promise<void> {
    for (const usr of [...this.pending.keys()]) await this.flush(usr);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flushAll().catch(() => undefined);
  }

  /** The app's realtime events: the alarm's notifications reach the administrators' open pages through them. */
  tellAdminsThrough(events: RealtimeEvents): void {
    this.events = events;
  }

  /** An administrator lifted the block: this instance forgets it at once (others look at their next refusal). */
  forget(usr: number): void {
    this.blocked.delete(usr);
    this.pending.delete(usr);
    this.known.delete(usr);
  }

  private async flush(usr: number): Promise<void> {
    const p = this.pending.get(usr);
    if (!p) return;
    this.pending.delete(usr);
    this.lastWrite.set(usr, Date.now());
    // A blocked user's hour does not roll over: the count that crossed stays until the lift.
    const [r] = await rows<{ rdb_rows: number; blocked: boolean }>(
      this.db,
      sql`INSERT INTO read_budget AS b (usr_cd, rdb_window_at, rdb_rows) VALUES (${usr}, now(), ${p.rows})
          ON CONFLICT (usr_cd) DO UPDATE SET
            rdb_rows = CASE WHEN b.rdb_blocked_at IS NULL AND b.rdb_window_at < now() - interval '1 hour'
                            THEN excluded.rdb_rows ELSE b.rdb_rows + excluded.rdb_rows END,
            rdb_window_at = CASE WHEN b.rdb_blocked_at IS NULL AND b.rdb_window_at < now() - interval '1 hour'
                                 THEN now() ELSE b.rdb_window_at END
          RETURNING rdb_rows, rdb_blocked_at IS NOT NULL AS blocked`,
    );
    this.known.set(usr, r.rdb_rows);
    if (r.blocked) {
      this.blocked.add(usr);
      return;
    }
    // Looked up here, not per answer, so that counting an answer needs no statement.
    const budget = await this.budgetOf(p.ctx.instCd);
    if (r.rdb_rows <= budget) return;
    // Only the instance whose UPDATE sets the block records the event and notifies the administrators: the
    // UPDATE's row lock holds another instance's UPDATE until this commits, which then finds the block set.
    const told = await this.db.transaction(async (tx) => {
      const [won] = await rows<{ rdb_rows: number }>(
        tx,
        sql`UPDATE read_budget SET rdb_blocked_at = now(), rdb_blocked_rows = rdb_rows
            WHERE usr_cd = ${usr} AND rdb_blocked_at IS NULL RETURNING rdb_rows`,
      );
      if (!won) return [];
      const u = p.ctx.user;
      const after = { rows: won.rdb_rows, budget, entity: p.entity.name, usr_nm: u.usr_nm };
      // The event's action-history code keys the notifications (one per administrator and event).
      const [event] = await rows<{ actn_hsty_cd: number }>(
        tx,
        sql`${auditInsertFrom(p.ctx, employee, BULK_READ_METHOD, {
          from: sql`(SELECT 1) AS one`,
          rowKey: sql`${String(usr)}`,
          before: null,
          after: sql`${JSON.stringify(after)}::jsonb`,
        })} RETURNING actn_hsty_cd`,
      );
      return storeBulkReadAlarm(tx, {
        instCd: p.ctx.instCd,
        actnHstyCd: Number(event.actn_hsty_cd),
        facts: { usr_cd: usr, usr_nm: u.usr_nm, usr_full_nm: u.usr_full_nm ?? null, rows: won.rdb_rows, budget },
      });
    });
    this.blocked.add(usr);
    if (told.length) this.events?.toUsers(told, 'updateNotification', { security: BULK_READ_METHOD });
  }

  /** The institute's READ_BUDGET_ROWS_HOUR, looked up at most once a minute. */
  private async budgetOf(instCd: number): Promise<number> {
    const c = this.budgets.get(instCd);
    if (c && Date.now() - c.at < 60_000) return c.v;
    const v = await settingNumber(this.db, instCd, 'READ_BUDGET_ROWS_HOUR');
    this.budgets.set(instCd, { v, at: Date.now() });
    return v;
  }
}

const budgets = new WeakMap<Db, ReadBudget>();

/** Writes at most every 5 s or 1,000 rows per user: across instances the count lags by no more. */
const DEFAULT_OPTIONS: ReadBudgetOptions = { flushRows: 1000, flushMs: 5000 };

/** One counter per database handle (an app instance). */
export function readBudgetFor(db: Db, opts: ReadBudgetOptions = DEFAULT_OPTIONS): ReadBudget {
  let b = budgets.get(db);
  if (!b) {
    b = new ReadBudget(db, opts);
    budgets.set(db, b);
  }
  return b;
}

/** The block of one user, lifted: the count starts again from zero. false when there was none. */
export async function liftReadBlock(db: Db, ctx: RequestContext, usr: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [gone] = await rows<Record<string, unknown>>(
      tx,
      sql`UPDATE read_budget SET rdb_blocked_at = NULL, rdb_blocked_rows = NULL, rdb_rows = 0, rdb_window_at = now()
          WHERE usr_cd = ${usr} AND rdb_blocked_at IS NOT NULL
          RETURNING usr_cd`,
    );
    if (!gone) return false;
    await writeAudit(tx, ctx, employee, 'UNBLOCK', usr, null, null);
    return true;
  });
}
