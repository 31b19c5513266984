import { apiPath, apiUrl, fieldSchema, hasRoute, type AnyEntity } from '@campus/entities/define';
import { pages, pagesOfEntity, type PageDef } from '@campus/entities/pages';
import { entities } from '@campus/entities/registry';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { readBudgetFor } from '../access/read-budget';
import { mustCtx, type RequestContext } from '../access/request-context';
import type { Db } from '../db/client';
import { badRequest, forbidden } from '../lib/http-error';
import { writeAudit } from './audit';
import { createRow, deleteRows, getRow, listRows, options, updateRow, withinPartners } from './crud.service';
import { answerImport, uploadBytes } from './import-progress';
import { importRows, MAX_IMPORT_BYTES } from './import.service';
import { parseListRule } from './entity-query';
import { parseListParams } from './list-query';
import { bodyDocs, listQueryDocs } from './openapi-docs';

const primidsDocs = {
  type: 'object',
  required: ['primids'],
  properties: { primids: { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 1, maxItems: 1000 } },
};

const idParam = z.object({ id: z.coerce.number({ error: 'The record code must be a number.' }).int().positive('The record code must be a number.') });

const parseId = (params: unknown): number => {
  const p = idParam.safeParse(params);
  if (!p.success) throw badRequest(p.error.issues[0]?.message ?? 'Bad record code.');
  return p.data.id;
};

/** The list's documented query string, with the column choice and what a code field matches. */
function listDocs(e: AnyEntity): Record<string, unknown> {
  const doc = listQueryDocs(e);
  const props = doc.properties as Record<string, Record<string, unknown>>;
  const codes = Object.values(e.fields).filter((f) => f.kind === 'text' && f.search && f.exactCode).map((f) => f.label);
  if (codes.length) props.q = { ...props.q, description: `${String(props.q?.description ?? '')} ${codes.join(', ')}: from the start only.` };
  props.cols = {
    type: 'string',
    description: 'Comma-separated field names to return (the key and row_ver always); only their links are joined. Absent: every field.',
  };
  props.rule = {
    type: 'string',
    description:
      'JSON { where: [{ field, op, value }], dateFilter: { field, from, to } } over declared fields (a notification rule\'s filter, days relative to today); ops: eq ne lt lte gt gte in not_in contains starts_with is_null not_null.',
  };
  return doc;
}

/** A context let in for the user's own row only (RequestContext.selfOnly) reaches no other row. */
function ownOnly(ctx: RequestContext, id: number): RequestContext {
  if (!ctx.selfOnly) return ctx;
  if (id !== ctx.user.usr_cd) throw forbidden('You are not allowed to open this page.');
  // One's own record lives in the home institute, whichever institute the request is working in.
  return { ...ctx, instCd: ctx.user.usr_inst_cd };
}

/** Pages whose forms pick rows of this entity in a dropdown: they may read its options. */
function pagesLinkingTo(e: AnyEntity): PageDef[] {
  const linking = new Set(
    entities.filter((o) => Object.values(o.fields).some((f) => f.kind === 'link' && f.to === e.name)).map((o) => o.name),
  );
  return pages.filter((pg) => pg.entity && linking.has(pg.entity));
}

/**
 * The options route's partner filters (`f_cls_cd=12`, or `12,14` for several): only fields some link
 * declares as its `within` partner, each value checked by the field's own schema, so no other name or
 * unchecked value reaches the SQL.
 */
function withinQuery(e: AnyEntity, query: Record<string, unknown>): Record<string, unknown[]> {
  const allowed = new Set(withinPartners(e));
  const out: Record<string, unknown[]> = {};
  for (const [k, v] of Object.entries(query)) {
    if (!k.startsWith('f_')) continue;
    const name = k.slice(2);
    if (!allowed.has(name)) throw badRequest(`Choices of ${e.label} cannot be filtered by '${name}'.`);
    if (typeof v !== 'string') throw badRequest(`Filter '${name}' must be a single value.`);
    const schema = fieldSchema(e.fields[name]);
    out[name] = v.split(',').filter((x) => x.trim() !== '').slice(0, 50).map((x) => {
      const parsed = schema.safeParse(x.trim());
      if (!parsed.success) throw badRequest(`Filter '${name}': ${parsed.error.issues[0]?.message ?? 'invalid value'}`);
      return parsed.data;
    });
  }
  return out;
}

/**
 * The generic CRUD contract for every declared entity at its spec path: list, options, get, create,
 * update, delete, import. Every route names the pages it serves; the access layer checks them.
 */
export function registerCrudRoutes(app: FastifyInstance, db: Db, skip: ReadonlySet<string> = new Set()): void {
  const reads = readBudgetFor(db);
  app.addHook('onClose', () => reads.close());
  for (const e of entities) {
    const pagesOf = pagesOfEntity(e.name);
    if (pagesOf.length === 0) continue;
    const base = apiPath(e);
    const tags = [e.label];
    const page = (button?: string) => ({ access: { kind: 'page' as const, pages: pagesOf, button } });

    if (hasRoute(e, 'list') && !skip.has(`GET ${base}`)) {
      // Every list answer counts its rows against the user's hourly budget (access/read-budget.ts).
      app.get(base, { config: { ...page(), docs: { querystring: listDocs(e) } }, schema: { tags, summary: `List ${e.label}` } }, async (req) => {
        const ctx = mustCtx(req);
        const params = parseListParams(e, req.query as Record<string, unknown>);
        const rule = parseListRule(e, (req.query as Record<string, unknown>).rule);
        if (rule) params.rule = rule;
        await reads.check(ctx, params.page, params.size);
        const answer = await listRows(db, e, ctx, params);
        await reads.count(ctx, e, answer.rows.length, params.page, params.size);
        return answer;
      });
    }
    app.get(
      apiUrl(e, 'options'),
      { config: { access: { kind: 'page', pages: [...pagesOf, ...pagesLinkingTo(e)] } }, schema: { tags, summary: `${e.label} choices` } },
      async (req) => {
        const q = req.query as Record<string, unknown>;
        const ids = (typeof q.ids === 'string' ? q.ids : '')
          .split(',')
          .filter((x) => /^\d{1,9}$/.test(x))
          .map(Number);
        return options(db, e, mustCtx(req), { q: typeof q.q === 'string' ? q.q.slice(0, 100) : undefined, ids, within: withinQuery(e, q) });
      },
    );
    // My Profile: with self-service fields, a user reaches their own row even without the page.
    const selfPage = () => ({ access: { kind: 'page' as const, pages: pagesOf, self: !!e.selfService?.length } });
    if (hasRoute(e, 'get')) {
      app.get(apiUrl(e, ':id'), { config: selfPage(), schema: { tags, summary: `One ${e.label}` } }, async (req) =>
        getRow(db, e, ownOnly(mustCtx(req), parseId(req.params)), parseId(req.params)),
      );
    }
    if (hasRoute(e, 'create') && !skip.has(`POST ${base}`)) {
      app.post(base, { config: { ...page('create'), docs: { body: bodyDocs(e, 'create') } }, schema: { tags, summary: `Create ${e.label}` } }, async (req, reply) => {
        reply.code(201);
        return createRow(db, e, mustCtx(req), req.body);
      });
    }
    if (hasRoute(e, 'update')) {
      // The button is decided by what changes (edit, or only a toggle's own button): see updateRow.
      app.put(apiUrl(e, ':id'), { config: { ...selfPage(), docs: { body: bodyDocs(e, 'update') } }, schema: { tags, summary: `Update ${e.label}` } }, async (req) =>
        updateRow(db, e, ownOnly(mustCtx(req), parseId(req.params)), parseId(req.params), req.body),
      );
    }
    if (hasRoute(e, 'delete')) {
      app.delete(base, { config: { ...page('delete'), docs: { body: primidsDocs } }, schema: { tags, summary: `Delete ${e.label} rows` } }, async (req) => ({
        deleted: await deleteRows(db, e, mustCtx(req), req.body),
      }));
    }
    if (hasRoute(e, 'import') && hasRoute(e, 'create')) {
      // The file is read as it arrives (never held whole); with 'Accept: application/x-ndjson' the answer
      // streams progress lines and then the result (import-progress.ts), otherwise it is the result alone.
      app.post(apiUrl(e, 'import'), { config: page('import'), schema: { tags, summary: `Import ${e.label} from .xlsx or .csv` } }, async (req, reply) => {
        const dryRun = ['1', 'true'].includes(String((req.query as { dryRun?: string }).dryRun ?? ''));
        const file = await req.file({ limits: { fileSize: MAX_IMPORT_BYTES } });
        if (!file) throw badRequest('Choose a .xlsx or .csv file to import.');
        const ctx = mustCtx(req);
        return answerImport(req, reply, (onProgress) => importRows(db, e, ctx, { name: file.filename, data: uploadBytes(file) }, dryRun, onProgress));
      });
    }
  }

  // Exports are built in the browser from rows the user could read; this records that they happened.
  // The pagename header picks the page; its 'export' button must be granted and its entity must match.
  const exportBody = z.object({ entity: z.string().max(60), count: z.number().int().min(0).max(1_000_000) });
  app.post(
    '/api/action_history/export',
    {
      config: { access: { kind: 'page', pages: pages.filter((pg) => pg.entity), button: 'export' } },
      schema: { tags: ['Action History'], summary: 'Record an Excel export' },
    },
    async (req) => {
      const body = exportBody.safeParse(req.body);
      if (!body.success) throw badRequest('Bad export record.');
      const ctx = mustCtx(req);
      const e = entities.find((x) => x.name === body.data.entity);
      const pg = pages.find((x) => x.module === ctx.page?.module && x.page === ctx.page?.page);
      if (!e || pg?.entity !== e.name) throw badRequest('The export does not match the page.');
      await writeAudit(db, ctx, e, 'EXPORT', null, null, { count: body.data.count });
      return { ok: true };
    },
  );
}
