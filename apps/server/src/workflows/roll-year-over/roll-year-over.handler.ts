import { apiUrl } from '@campus/entities/define';
import { entity } from '@campus/entities/registry';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { mustCtx, type RequestContext } from '../../access/request-context';
import { rows, sql, type Db, type Tx } from '../../db/client';
import { dyn } from '../../db/dyn-table';
import { entityTable } from '../../db/tables';
import { writeAudit } from '../../engine/audit';
import { getRow, withDbErrors } from '../../engine/crud.service';
import type { Row } from '../../engine/entity-hooks';
import { localDateTime } from '../../lib/clock';
import { badRequest, conflict } from '../../lib/http-error';
import { copyableTable, copyableTables, dependenciesOf, dependentsOf } from './copyable-tables';
import { migrationIdSchema, rolloverSchema, yearPairSchema, type RolloverRequest } from './roll-year-over.schema';
import {
  firstReference,
  missingSentence,
  planRollover,
  previewOf,
  writeCopies,
  yearOf,
  yearsOf,
  type RolloverInput,
  type TablePreview,
  type YearRow,
} from './year-copy.service';

const migration = entity('migration');
const migrationRow = entity('migration_row');
const pages = [{ module: 'institute', page: 'migration' }] as const;
/** Advisory lock class of a rollover and its rollbacks, with the target year's code (unique across institutes). */
const LOCK_CLASS = 7303;

function parsed<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { message: string; path: PropertyKey[] }[] } } }, v: unknown): T {
  const p = schema.safeParse(v ?? {});
  if (!p.success) {
    const details = p.error.issues.map((i) => ({ field: String(i.path[0] ?? ''), message: i.message }));
    throw badRequest(details[0]?.message ?? 'Invalid request.', details);
  }
  return p.data;
}

async function inputOf(db: Db | Tx, ctx: RequestContext, body: RolloverRequest): Promise<RolloverInput> {
  const from = await yearOf(db, ctx, body.frm_acdm_cd);
  const to = await yearOf(db, ctx, body.to_acdm_cd);
  const copiesFees = body.tables.some((n) => copyableTable(n)?.feeAmounts.length);
  return { from, to, tables: body.tables, basisPoints: copiesFees ? Math.round((body.fee_pct ?? 0) * 100) : 0 };
}

export interface PreviewAnswer {
  frm_acdm: string;
  to_acdm: string;
  fee_pct: number | null;
  tables: TablePreview[];
  copy: number;
  skip: number;
  /** Why a run would be refused (a fee mapping's fee group neither there nor copied), else null. */
  blocked: string | null;
}

export async function previewRollover(db: Db, ctx: RequestContext, body: RolloverRequest): Promise<PreviewAnswer> {
  const input = await inputOf(db, ctx, body);
  const plan = await planRollover(db, ctx, input);
  const tables = plan.tables.map(previewOf);
  return {
    frm_acdm: input.from.label,
    to_acdm: input.to.label,
    fee_pct: input.basisPoints === 0 ? null : input.basisPoints / 100,
    tables,
    copy: tables.reduce((a, t) => a + t.copy, 0),
    skip: tables.reduce((a, t) => a + t.skip, 0),
    blocked: missingSentence(plan.tables, input.to),
  };
}

export interface RunAnswer {
  mgrtn_run_cd: number | null;
  migrations: Row[];
  tables: TablePreview[];
  copy: number;
  skip: number;
  message: string;
}

const lockYear = (tx: Tx, acdmCd: number) => tx.execute(sql`SELECT pg_advisory_xact_lock(${LOCK_CLASS}::int, ${acdmCd}::int)`);

function describeRun(t: TablePreview, pct: number | null): string {
  const change = pct === null ? '' : `, amounts ${pct > 0 ? '+' : ''}${pct}% rounded to whole rupees`;
  return `${t.label}: ${t.copy} copied, ${t.skip} already there${change}.`;
}

/**
 * The run: one transaction under the target year's lock, so two runs (or a run and a rollback) into one year
 * never interleave and the second finds the first one's copies already there. Refused whole (409) when a
 * copy would lack a row it links to; a run that finds everything already there writes nothing and says so.
 */
export async function runRollover(db: Db, ctx: RequestContext, body: RolloverRequest): Promise<RunAnswer> {
  return withDbErrors(() =>
    db.transaction(async (tx) => {
      const input = await inputOf(tx, ctx, body);
      await lockYear(tx, input.to.acdm_cd);
      const plan = await planRollover(tx, ctx, input);
      const blocked = missingSentence(plan.tables, input.to);
      if (blocked) throw conflict(`Nothing was copied. ${blocked}`);
      const tables = plan.tables.map(previewOf);
      const copy = tables.reduce((a, t) => a + t.copy, 0);
      const skip = tables.reduce((a, t) => a + t.skip, 0);
      if (copy === 0) {
        return {
          mgrtn_run_cd: null,
          migrations: [],
          tables,
          copy,
          skip,
          message: `Nothing new to copy: all ${skip} row(s) are already in ${input.to.label}.`,
        };
      }
      const pct = input.basisPoints === 0 ? null : input.basisPoints / 100;
      // The run's number is its first migration row's code, taken from that table's own sequence.
      const [{ id: runCd }] = await rows<{ id: number }>(tx, sql`SELECT nextval(pg_get_serial_sequence(${migration.table}, ${migration.key}))::int AS id`);
      const mt = dyn(entityTable(migration.name).table);
      const ctxTo: RequestContext = { ...ctx, acdmCd: input.to.acdm_cd };
      const copiesOf = new Map<string, Map<number, number>>();
      const migrations: Row[] = [];
      for (const [i, p] of plan.tables.entries()) {
        const t = tables[i];
        const values: Row = {
          mgrtn_tbl_cd: p.table.entity,
          frm_acdm_cd: input.from.acdm_cd,
          to_acdm_cd: input.to.acdm_cd,
          row_cnt: t.copy,
          mgrtn_skip_cnt: t.skip,
          mgrtn_pct: p.table.feeAmounts.length ? pct : null,
          mgrtn_dscr: describeRun(t, p.table.feeAmounts.length ? pct : null),
          mgrtn_sts: 'Copied',
          mgrtn_dt: localDateTime().date,
          mgrtn_by: ctx.user.usr_full_nm.slice(0, 150),
          mgrtn_run_cd: runCd,
          inst_cd: ctx.instCd,
          crt_by: ctx.user.usr_cd,
        };
        if (i === 0) values[migration.key] = runCd;
        const [{ id }] = await tx.insert(mt).values(values).returning({ id: mt[migration.key] });
        const made = await writeCopies(tx, ctxTo, p, plan.links, copiesOf);
        if (made.size) {
          const rt = dyn(entityTable(migrationRow.name).table);
          const list = [...made].map(([src, cpy]) => ({
            mgrtn_cd: Number(id),
            mgrtn_row_tbl: p.table.entity,
            mgrtn_row_src_cd: src,
            mgrtn_row_cpy_cd: cpy,
            inst_cd: ctx.instCd,
            crt_by: ctx.user.usr_cd,
          }));
          for (let k = 0; k < list.length; k += 500) await tx.insert(rt).values(list.slice(k, k + 500));
        }
        const row = await getRow(tx, migration, { ...ctx, dataChk: false }, Number(id));
        await writeAudit(tx, ctx, migration, 'POST', Number(id), null, row);
        migrations.push(row);
      }
      return {
        mgrtn_run_cd: runCd,
        migrations,
        tables,
        copy,
        skip,
        message: `${copy} row(s) copied from ${input.from.label} to ${input.to.label}${skip ? `; ${skip} already there were left as they are` : ''}.`,
      };
    }),
  );
}

/**
 * Rollback of one migration row (one table of a run): deletes exactly the rows it copied that still exist,
 * refused whole (409) while any row of any table links to one of them, a later table's copies included
 * (the copied fee mappings hold their fee groups: roll those back first), or when already rolled back.
 */
export async function rollbackMigration(db: Db, ctx: RequestContext, mgrtnCd: number): Promise<Row> {
  return withDbErrors(() =>
    db.transaction(async (tx) => {
      const peek = await getRow(tx, migration, { ...ctx, dataChk: false }, mgrtnCd);
      await lockYear(tx, Number(peek.to_acdm_cd));
      const before = await getRow(tx, migration, { ...ctx, dataChk: false }, mgrtnCd, true);
      const name = String(before.mgrtn_tbl_cd);
      if (before.mgrtn_sts === 'Rolled Back') throw conflict(`The copy of '${name}' (migration ${mgrtnCd}) is already rolled back.`);
      const t = copyableTable(name);
      if (!t) throw conflict(`'${name}' is not a table a rollover copies.`);
      const e = t.def;
      const tt = dyn(entityTable(e.name).table);
      const copies = await rows<{ cpy: number }>(
        tx,
        sql`SELECT mgrtn_row_cpy_cd AS cpy FROM migration_row WHERE mgrtn_cd = ${mgrtnCd} AND mgrtn_row_tbl = ${name} AND inst_cd = ${ctx.instCd}`,
      );
      const ids = copies.map((c) => Number(c.cpy));
      // Only what is still there, of this institute and the run's target year: a copy deleted by hand is gone already.
      const found: Row[] = [];
      for (let k = 0; k < ids.length; k += 1000) {
        const part = ids.slice(k, k + 1000);
        found.push(
          ...(await tx
            .select()
            .from(tt)
            .where(and(inArray(tt[e.key], part), eq(tt.inst_cd, ctx.instCd), eq(tt.acdm_cd, Number(before.to_acdm_cd))))
            .for('update')),
        );
      }
      const foundIds = found.map((r) => Number(r[e.key]));
      const ref = await firstReference(tx, e, foundIds);
      if (ref) {
        const row = found.find((r) => Number(r[e.key]) === ref.id);
        const title = row ? String(row[e.title]) : String(ref.id);
        const copied = dependentsOf(name).includes(ref.other.name) ? ` Roll back the copy of '${ref.other.name}' first if those were copied too.` : '';
        throw conflict(`The copy of '${name}' cannot be rolled back: ${e.label} '${title}' is used by ${ref.n} ${ref.other.label} record(s). Nothing was deleted.${copied}`);
      }
      for (let k = 0; k < foundIds.length; k += 1000) {
        const part = foundIds.slice(k, k + 1000);
        await tx.delete(tt).where(inArray(tt[e.key], part));
      }
      for (const r of found) await writeAudit(tx, ctx, e, 'DELETE', Number(r[e.key]), r, null);
      await tx.execute(
        sql`UPDATE migration SET mgrtn_sts = 'Rolled Back', row_ver = row_ver + 1, updt_by = ${ctx.user.usr_cd}, updt_dt = now() WHERE mgrtn_cd = ${mgrtnCd}`,
      );
      const after = await getRow(tx, migration, { ...ctx, dataChk: false }, mgrtnCd);
      await writeAudit(tx, ctx, migration, 'ROLLBACK', mgrtnCd, before, after);
      return { ...after, deleted: found.length };
    }),
  );
}

/** The years and tables step of the screen: the institute's years, with the usual pair (this year -> the next). */
export async function rolloverChoices(db: Db, ctx: RequestContext): Promise<{ years: YearRow[]; frm_acdm_cd: number | null; to_acdm_cd: number | null; next_strt_yr: number | null }> {
  const years = await yearsOf(db, ctx);
  const from = years.find((y) => y.acdm_cd === ctx.acdmCd) ?? years.filter((y) => y.acdm_sts).at(-1) ?? null;
  const next = from ? years.find((y) => y.acdm_strt_yr === from.acdm_strt_yr + 1) : undefined;
  return { years, frm_acdm_cd: from?.acdm_cd ?? null, to_acdm_cd: next?.acdm_cd ?? null, next_strt_yr: from ? from.acdm_strt_yr + 1 : null };
}

/** Per copyable table: its rows in both years and what it needs, for the tables step's checkboxes. */
export async function tableCounts(db: Db, ctx: RequestContext, frm: number, to: number) {
  const from = await yearOf(db, ctx, frm);
  const target = await yearOf(db, ctx, to);
  const out = [];
  for (const t of copyableTables) {
    const tt = dyn(entityTable(t.entity).table);
    const [a] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ${tt} WHERE ${tt.inst_cd} = ${ctx.instCd} AND ${tt.acdm_cd} = ${from.acdm_cd}`);
    const [b] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ${tt} WHERE ${tt.inst_cd} = ${ctx.instCd} AND ${tt.acdm_cd} = ${target.acdm_cd}`);
    out.push({ table: t.entity, label: t.def.label, rows: Number(a.n), in_target: Number(b.n), needs: dependenciesOf(t), fee_amounts: t.feeAmounts.length > 0 });
  }
  return out;
}

export function registerRollYearOverRoutes(app: FastifyInstance, db: Db): void {
  const tags = ['Migration'];
  const create = { access: { kind: 'page' as const, pages, button: 'create' } };
  app.get(apiUrl(migration, 'choices'), { config: create, schema: { tags, summary: 'Years a rollover may copy from and to' } }, async (req) => rolloverChoices(db, mustCtx(req)));
  app.get(apiUrl(migration, 'tables'), { config: create, schema: { tags, summary: 'Copyable tables with their rows in both years' } }, async (req) => {
    const q = parsed(yearPairSchema, req.query);
    return tableCounts(db, mustCtx(req), q.frm_acdm_cd, q.to_acdm_cd);
  });
  app.post(apiUrl(migration, 'preview'), { config: create, schema: { tags, summary: 'What a rollover would copy, skip and change' } }, async (req) =>
    previewRollover(db, mustCtx(req), parsed(rolloverSchema, req.body)),
  );
  app.post(apiUrl(migration), { config: create, schema: { tags, summary: 'Copy year-scoped masters to another year' } }, async (req, reply: FastifyReply) => {
    const answer = await runRollover(db, mustCtx(req), parsed(rolloverSchema, req.body));
    return reply.code(answer.mgrtn_run_cd === null ? 200 : 201).send(answer);
  });
  app.post(
    apiUrl(migration, ':id/rollback'),
    { config: { access: { kind: 'page', pages, button: 'rollback' } }, schema: { tags, summary: 'Delete the rows one migration row copied' } },
    async (req) => rollbackMigration(db, mustCtx(req), parsed(migrationIdSchema, req.params).id),
  );
}
