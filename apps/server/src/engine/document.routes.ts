import { apiUrl } from '@campus/entities/define';
import { pagesOfEntity } from '@campus/entities/pages';
import { entities } from '@campus/entities/registry';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { mustCtx, type RequestContext } from '../access/request-context';
import type { Db } from '../db/client';
import { sendPdf } from '../documents/pdf-render';
import { badRequest } from '../lib/http-error';
import { getRow } from './crud.service';
import type { Row } from './entity-hooks';

/** Makes one row's PDF; `query` carries the print options (?size=, ?lang=). */
export type DocumentRenderer = (db: Db, ctx: RequestContext, row: Row, query: unknown) => Promise<{ pdf: Buffer; fileName: string }>;

/** Renderers by `{entity}/{button}`, handed in by app.ts so the engine names no document itself. */
export type DocumentRenderers = Readonly<Record<string, DocumentRenderer>>;

const idParam = z.object({ id: z.coerce.number({ error: 'The record code must be a number.' }).int().positive('The record code must be a number.') });

/**
 * GET `{api}{id}/{path}` for every declared document (EntityDef.documents): the page's own permission
 * button, then the row read exactly as a get reads it (institute, year and data_chk scope: another
 * teacher's student is 'not found'), then the document's renderer. A declared document without a renderer
 * stops the start, so a button never leads to a missing route.
 */
export function registerDocumentRoutes(app: FastifyInstance, db: Db, renderers: DocumentRenderers): void {
  for (const e of entities) {
    for (const d of e.documents ?? []) {
      const render = renderers[`${e.name}/${d.button}`];
      if (!render) throw new Error(`${e.name}: document ${d.button} has no renderer`);
      const config = { access: { kind: 'page' as const, pages: pagesOfEntity(e.name), button: d.button } };
      app.get(apiUrl(e, `:id/${d.path}`), { config, schema: { tags: [e.label], summary: `${d.label}: ${e.label} as PDF` } }, async (req, reply) => {
        const ctx = mustCtx(req);
        const id = idParam.safeParse(req.params);
        if (!id.success) throw badRequest(id.error.issues[0]?.message ?? 'Bad record code.');
        const row = await getRow(db, e, ctx, id.data.id);
        const { pdf, fileName } = await render(db, ctx, row, req.query);
        return sendPdf(reply, pdf, fileName);
      });
    }
  }
}
