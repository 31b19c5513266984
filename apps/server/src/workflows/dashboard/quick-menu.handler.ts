import { findPage, isLive, menuGroups, pagePath } from '@campus/entities/pages';
import { findEntity } from '@campus/entities/registry';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { effectivePermissions } from '../../access/permission';
import { mustCtx, type RequestContext } from '../../access/request-context';
import { rows, sql, type Db } from '../../db/client';
import { listRows } from '../../engine/crud.service';
import { registerHooks } from '../../engine/entity-hooks';
import { parseListParams } from '../../engine/list-query';
import { badRequest, conflict, notFound } from '../../lib/http-error';

/**
 * The quick menu: each user's own shortcuts (quick_menu.usr_cd, set from the session). Every route here is
 * open to any signed-in user and reads or writes that user's rows only; the generic update and delete of the
 * Quick Menu page (for those who hold it) are held to the same rule by hooks. A shortcut to a page the user
 * may not open (any more) is not listed.
 */

/** Shortcuts a user may keep: enough for a header, few enough to stay one row. */
export const MAX_SHORTCUTS = 12;
const ALREADY = 'This page is already in your quick menu.';
/** Open to every signed-in user (spec section 2), so a shortcut to them needs no page permission. */
const OPEN_PATHS: Record<string, string> = { 'sms/dashboard': 'layout-dashboard', 'sms/schedule/table': 'calendar' };

/**
 * A shortcut's page from a path the browser had (with or without '/', a mode or a query): the page's own
 * path and its module/page key (null for the pages open to all). undefined: not a page of the product.
 */
export function shortcutPage(raw: string): { path: string; key: string | null; icon: string | null } | undefined {
  const clean = raw.trim().split(/[?#]/)[0].replace(/^\/+/, '').replace(/\/+$/, '');
  if (clean === 'sms/dashboard') return { path: clean, key: null, icon: OPEN_PATHS[clean] };
  if (clean === 'sms/schedule' || clean.startsWith('sms/schedule/')) return { path: 'sms/schedule/table', key: null, icon: OPEN_PATHS['sms/schedule/table'] };
  const [area, module, page] = clean.split('/');
  const pg = area === 'sms' && module && page ? findPage(module, page) : undefined;
  if (!pg || !isLive(pg)) return undefined;
  return { path: pagePath(pg), key: `${pg.module}/${pg.page}`, icon: menuGroups.find((g) => g.module === pg.module)?.icon ?? null };
}

/** The module/page keys the user may open in the request's institute. */
async function openable(db: Db, ctx: RequestContext): Promise<Set<string>> {
  const perms = await effectivePermissions(db, ctx.user.usr_cd, ctx.instCd, ctx.user.is_admin);
  return new Set([...perms.entries()].filter(([, p]) => p.usr_prms_is_alw).map(([k]) => k));
}

const mayOpen = (allowed: Set<string>, path: unknown): boolean => {
  const pg = typeof path === 'string' ? shortcutPage(path) : undefined;
  return !!pg && (pg.key === null || allowed.has(pg.key));
};

const addBody = z.strictObject({
  qm_pg_nm: z.string({ error: 'Page Name is required.' }).trim().min(1, 'Page Name is required.').max(100, 'Page Name: at most 100 characters.'),
  qm_pg_pth: z.string({ error: 'Page Path is required.' }).trim().min(1, 'Page Path is required.').max(200, 'Page Path: at most 200 characters.'),
  qm_pg_icn: z.string().trim().max(60).nullable().optional(),
  // The Quick Menu page's form sends the order too; absent, the page goes last.
  qm_ord: z.number().int('Order must be a whole number.').min(0).max(9999, 'Order: at most 9999.').nullable().optional(),
});

const orderBody = z.strictObject({
  order: z.array(z.number().int().positive(), { error: "'order' must be the list of your shortcut codes." }).max(MAX_SHORTCUTS),
});

const idParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

let hooksOn = false;
function registerQuickMenuHooks(): void {
  if (hooksOn) return;
  hooksOn = true;
  const own = (ctx: RequestContext, r: Record<string, unknown>) => {
    if (Number(r.usr_cd) !== ctx.user.usr_cd) throw notFound(`Quick Menu ${String(r.qm_cd)} was not found.`);
  };
  registerHooks('quick_menu', {
    beforeCreate: async (_tx, ctx, values) => {
      values.usr_cd = ctx.user.usr_cd;
    },
    beforeUpdate: async (_tx, ctx, before, changes) => {
      own(ctx, before);
      if (changes.qm_pg_pth !== undefined) {
        const pg = shortcutPage(String(changes.qm_pg_pth));
        if (!pg) throw badRequest(`'${String(changes.qm_pg_pth)}' is not a page of Campus.`, [{ field: 'qm_pg_pth', message: 'Not a page of Campus.' }]);
        changes.qm_pg_pth = pg.path;
      }
    },
    beforeDelete: async (_tx, ctx, list) => {
      for (const r of list) own(ctx, r);
    },
  });
}

export function registerQuickMenuRoutes(app: FastifyInstance, db: Db): void {
  const signedIn = { access: { kind: 'signed-in' as const } };
  const tags = ['Quick Menu'];
  const e = findEntity('quick_menu');
  if (!e) throw new Error('quick_menu is not declared');
  registerQuickMenuHooks();

  app.get('/api/quick_menu/', { config: signedIn, schema: { tags, summary: "The signed-in user's own shortcuts (pages they may open)" } }, async (req) => {
    const ctx = mustCtx(req);
    const params = parseListParams(e, req.query as Record<string, unknown>);
    // The user's own rows, whatever f_usr_cd the request asked for.
    params.filters = { ...params.filters, usr_cd: String(ctx.user.usr_cd) };
    const [answer, allowed] = await Promise.all([listRows(db, e, ctx, params), openable(db, ctx)]);
    const shown = answer.rows.filter((r) => mayOpen(allowed, r.qm_pg_pth));
    return { ...answer, rows: shown, total: answer.total - (answer.rows.length - shown.length) };
  });

  app.get('/api/quick_menu/:id', { config: signedIn, schema: { tags, summary: 'One of your shortcuts' } }, async (req) => {
    const ctx = mustCtx(req);
    const p = idParam.safeParse(req.params);
    if (!p.success) throw badRequest('The record code must be a number.');
    // Among the user's own (at most MAX_SHORTCUTS): another user's code is simply not found.
    const params = parseListParams(e, { f_usr_cd: String(ctx.user.usr_cd), size: '100' });
    const found = (await listRows(db, e, ctx, params)).rows.find((r) => Number(r.qm_cd) === p.data.id);
    if (!found) throw notFound(`Quick Menu ${p.data.id} was not found.`);
    return found;
  });

  app.post('/api/quick_menu/', { config: signedIn, schema: { tags, summary: 'Add a page to your quick menu' } }, async (req, reply) => {
    const ctx = mustCtx(req);
    const b = addBody.safeParse(req.body ?? {});
    if (!b.success) {
      const i = b.error.issues[0];
      const message = i?.code === 'unrecognized_keys' ? `Unknown field(s): ${i.keys.join(', ')}.` : (i?.message ?? 'Invalid shortcut.');
      throw badRequest(message, [{ field: String(i?.path[0] ?? ''), message }]);
    }
    const pg = shortcutPage(b.data.qm_pg_pth);
    if (!pg) throw badRequest(`'${b.data.qm_pg_pth}' is not a page of Campus.`, [{ field: 'qm_pg_pth', message: 'Not a page of Campus.' }]);
    if (!mayOpen(await openable(db, ctx), pg.path)) throw badRequest('You cannot open this page, so it cannot be in your quick menu.', [{ field: 'qm_pg_pth', message: 'Not your page.' }]);
    return db.transaction(async (tx) => {
      // One user's adds one after another: the count and the order are read under the lock of their rows.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(727275, ${ctx.user.usr_cd})`);
      const [{ n, last }] = await rows<{ n: number; last: number | null }>(
        tx,
        sql`SELECT count(*)::int AS n, max(qm_ord) AS last FROM quick_menu WHERE inst_cd = ${ctx.instCd} AND usr_cd = ${ctx.user.usr_cd}`,
      );
      const [dupe] = await rows<{ qm_cd: number }>(
        tx,
        sql`SELECT qm_cd FROM quick_menu WHERE inst_cd = ${ctx.instCd} AND usr_cd = ${ctx.user.usr_cd} AND lower(qm_pg_pth) = lower(${pg.path})`,
      );
      if (dupe) throw conflict(ALREADY);
      if (n >= MAX_SHORTCUTS) throw badRequest(`Your quick menu holds at most ${MAX_SHORTCUTS} pages: remove one first.`);
      const [row] = await rows<Record<string, unknown>>(
        tx,
        sql`INSERT INTO quick_menu (qm_pg_nm, qm_pg_pth, qm_pg_icn, qm_ord, usr_cd, inst_cd, crt_by)
            VALUES (${b.data.qm_pg_nm}, ${pg.path}, ${b.data.qm_pg_icn || pg.icon}, ${b.data.qm_ord ?? (last ?? 0) + 1}, ${ctx.user.usr_cd}, ${ctx.instCd}, ${ctx.user.usr_cd})
            RETURNING qm_cd, qm_pg_nm, qm_pg_pth, qm_pg_icn, qm_ord, usr_cd, row_ver`,
      );
      reply.code(201);
      return row;
    });
  });

  /**
   * The header's editor saves the user's whole list at once: the codes kept, in their new order; the user's
   * other shortcuts are removed. A code that is not one of the user's own is refused (404), nothing written.
   */
  app.put('/api/quick_menu/mine', { config: signedIn, schema: { tags, summary: 'Reorder and remove your shortcuts' } }, async (req) => {
    const ctx = mustCtx(req);
    const b = orderBody.safeParse(req.body ?? {});
    if (!b.success) throw badRequest(b.error.issues[0]?.message ?? "'order' must be the list of your shortcut codes.");
    const order = b.data.order;
    if (new Set(order).size !== order.length) throw badRequest('A shortcut appears twice in the order.');
    return db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(727275, ${ctx.user.usr_cd})`);
      const mine = await rows<{ qm_cd: number }>(tx, sql`SELECT qm_cd FROM quick_menu WHERE inst_cd = ${ctx.instCd} AND usr_cd = ${ctx.user.usr_cd}`);
      const own = new Set(mine.map((r) => r.qm_cd));
      const stranger = order.find((cd) => !own.has(cd));
      if (stranger !== undefined) throw notFound(`Quick Menu ${stranger} was not found.`);
      const gone = mine.map((r) => r.qm_cd).filter((cd) => !order.includes(cd));
      if (gone.length) {
        await tx.execute(sql`DELETE FROM quick_menu WHERE usr_cd = ${ctx.user.usr_cd} AND qm_cd IN (${sql.join(gone.map((cd) => sql`${cd}`), sql`, `)})`);
      }
      for (const [i, cd] of order.entries()) {
        await tx.execute(
          sql`UPDATE quick_menu SET qm_ord = ${i + 1}, row_ver = row_ver + 1, updt_by = ${ctx.user.usr_cd}, updt_dt = now()
              WHERE qm_cd = ${cd} AND usr_cd = ${ctx.user.usr_cd} AND qm_ord IS DISTINCT FROM ${i + 1}`,
        );
      }
      return { kept: order.length, removed: gone.length };
    });
  });
}
