import type { AnyEntity, Field } from '@campus/entities/define';
import { pagesOfEntity } from '@campus/entities/pages';
import { entities } from '@campus/entities/registry';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, stat, unlink, writeFile } from 'node:fs/promises';
import { join, relative, resolve, isAbsolute } from 'node:path';
import { z } from 'zod';
import { enterPage, mustCtx, type RequestContext } from '../../access/request-context';
import { hasButton } from '../../access/permission';
import type { Config } from '../../config';
import { rows, sql, type Db } from '../../db/client';
import { entityTable, upload } from '../../db/tables';
import { getRow } from '../../engine/crud.service';
import { isUploadField } from '../../engine/file-claims';
import { badRequest, forbidden, notFound } from '../../lib/http-error';
import { servedInline, sniffFile } from './file-sniff';

/** The spec's message (section 5) for an image field given anything but an image (or a pdf where allowed). */
export const IMAGE_UPLOAD_MESSAGE = 'Please upload only image file';
export const FILE_UPLOAD_MESSAGE = 'Please upload only an image or PDF file.';

/** Never-claimed uploads older than this are swept: a form left open longer uploads again. */
const UNCLAIMED_TTL_HOURS = 24;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

type UploadField = Extract<Field, { kind: 'image' | 'file' }>;

/** image() takes PDF only with allowPdf; file() takes images and PDF. */
const allowsPdf = (f: UploadField): boolean => f.kind === 'file' || f.allowPdf === true;

const uploadEntities = (): AnyEntity[] => entities.filter((e) => Object.values(e.fields).some(isUploadField));

function uploadField(e: AnyEntity | undefined, name: string): UploadField | undefined {
  if (!e || !Object.hasOwn(e.fields, name)) return undefined;
  const f = e.fields[name];
  return isUploadField(f) && !f.readOnly && !f.auto ? f : undefined;
}

const isInside = (dir: string, root: string): boolean => {
  const r = relative(root, dir);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
};

/**
 * Who may upload for a field: whoever may write the entity's page (its create or edit button), or, for a
 * self-service field (My Profile photo), the user for their own row. Answers the institute the upload is
 * recorded under, which the write's context must match when it claims the file (see takeUploads).
 */
async function authorizeUpload(req: FastifyRequest, db: Db, ctx: RequestContext, e: AnyEntity, field: string): Promise<number> {
  const selfService = e.ownership === 'self' && (e.selfService ?? []).includes(field);
  let hasPage = true;
  try {
    await enterPage(req, db, ctx, pagesOfEntity(e.name));
  } catch (err) {
    if (!selfService) throw err;
    hasPage = false;
  }
  if (hasPage && (hasButton(ctx.perm ?? undefined, 'create') || hasButton(ctx.perm ?? undefined, 'edit'))) return ctx.instCd;
  // Without the page, one's own row is reached in the home institute (crud.routes ownOnly).
  if (selfService) return hasPage ? ctx.instCd : ctx.user.usr_inst_cd;
  throw forbidden("You do not have the 'create' or 'edit' permission on this page.");
}

/** inline for what a browser shows safely, attachment for SVG; the name in both ASCII and UTF-8 forms. */
function disposition(mime: string, name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${servedInline(mime) ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

const uploadQuery = z.object({ entity: z.string().max(60), field: z.string().max(60) });
const fileParams = z.object({ id: z.coerce.number().int().positive(), field: z.string().max(60) });

/**
 * POST /api/fileupload/?entity=&field= and GET /api/file/{entity}/{id}/{field}, plus the hourly sweep of
 * released, orphaned and never-claimed uploads.
 */
export function registerFileRoutes(app: FastifyInstance, db: Db, cfg: Config): void {
  const dir = resolve(cfg.uploadDir);
  // Files are served only through the authorized route below, never by the static web server.
  if (cfg.webDist && isInside(dir, resolve(cfg.webDist))) throw new Error(`UPLOAD_DIR (${dir}) must lie outside the web app (${cfg.webDist}).`);
  const tags = ['Files'];

  app.post(
    '/api/fileupload/',
    { config: { access: { kind: 'signed-in' } }, schema: { tags, summary: 'Upload an image or file for an entity field; answers { file_id }' } },
    async (req) => {
      const ctx = mustCtx(req);
      const q = uploadQuery.safeParse(req.query);
      const e = q.success ? entities.find((x) => x.name === q.data.entity) : undefined;
      const f = q.success ? uploadField(e, q.data.field) : undefined;
      if (!e || !f || !q.success) throw badRequest('There is no such image or file field.');
      const instCd = await authorizeUpload(req, db, ctx, e, q.data.field);
      const file = await req.file();
      if (!file) throw badRequest('Choose a file to upload.');
      const buf = await file.toBuffer();
      const sniffed = sniffFile(buf);
      if (!sniffed || (sniffed.kind === 'pdf' && !allowsPdf(f))) throw badRequest(f.kind === 'image' ? IMAGE_UPLOAD_MESSAGE : FILE_UPLOAD_MESSAGE);

      await mkdir(dir, { recursive: true, mode: 0o700 });
      // Generated names: nothing the client sends reaches the file system.
      const storedName = randomBytes(16).toString('hex');
      const fileId = randomBytes(18).toString('base64url');
      const path = join(dir, storedName);
      await writeFile(path, buf, { flag: 'wx', mode: 0o600 });
      try {
        await db.insert(upload).values({
          upld_id: fileId,
          upld_stored_nm: storedName,
          upld_orig_nm: (file.filename || 'file').replace(/[\u0000-\u001f\u007f]/g, '').slice(-200) || 'file',
          upld_mime: sniffed.mime,
          upld_size: buf.length,
          usr_cd: ctx.user.usr_cd,
          inst_cd: instCd,
          upld_entity: e.name,
          upld_field: q.data.field,
        });
      } catch (err) {
        await unlink(path).catch(() => undefined);
        throw err;
      }
      return { file_id: fileId };
    },
  );

  for (const e of uploadEntities()) {
    const pagesOf = pagesOfEntity(e.name);
    if (pagesOf.length === 0) continue;
    app.get(
      `/api/file/${e.name}/:id/:field`,
      {
        // As the row's own GET: the entity's page, or one's own row for entities with self-service fields.
        config: { access: { kind: 'page', pages: pagesOf, self: !!e.selfService?.length } },
        schema: { tags, summary: `A stored file of one ${e.label}` },
      },
      async (req, reply) => {
        const p = fileParams.safeParse(req.params);
        if (!p.success || !uploadField(e, p.data.field)) throw notFound('No such file.');
        const { id, field } = p.data;
        let ctx = mustCtx(req);
        if (ctx.selfOnly) {
          if (id !== ctx.user.usr_cd) throw forbidden('You are not allowed to open this page.');
          ctx = { ...ctx, instCd: ctx.user.usr_inst_cd };
        }
        // The normal scoped read: institute, year and data_chk decide who sees the row, hence its file.
        const row = await getRow(db, e, ctx, id);
        if (row[field] === null || row[field] === undefined) throw notFound('No such file.');
        const [u] = await db
          .select()
          .from(upload)
          .where(and(eq(upload.upld_entity, e.name), eq(upload.upld_field, field), eq(upload.upld_row_cd, id), isNull(upload.upld_released_at)))
          .orderBy(desc(upload.upld_cd))
          .limit(1);
        if (!u) throw notFound('No such file.');
        const path = join(dir, u.upld_stored_nm);
        const size = await stat(path).then(
          (s) => s.size,
          () => null,
        );
        if (size === null) throw notFound('No such file.');
        return reply
          .header('content-type', u.upld_mime)
          .header('content-length', size)
          .header('content-disposition', disposition(u.upld_mime, u.upld_orig_nm))
          .header('x-content-type-options', 'nosniff')
          // An SVG may carry script: even opened directly it runs in a sandbox without the app's origin.
          .header('content-security-policy', 'sandbox')
          .header('cache-control', 'private, no-cache')
          .send(createReadStream(path));
      },
    );
  }

  const sweep = (): void => {
    sweepUploads(db, dir).catch((err: unknown) => app.log.error({ err }, 'upload sweep failed'));
  };
  const first = setTimeout(sweep, 60_000);
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  first.unref();
  timer.unref();
  app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(timer);
  });
}

/**
 * Deletes the files nobody can reach any more: released ones (replaced or cleared by a write), claimed ones
 * whose row was deleted, and uploads never claimed within a day. Rows go first (DELETE ... RETURNING), so
 * with several server processes each file is removed by one of them; a file already gone is fine.
 */
export async function sweepUploads(db: Db, dir: string): Promise<number> {
  for (const e of uploadEntities()) {
    const t = entityTable(e.name).table;
    await db.execute(sql`
      UPDATE upload u SET upld_released_at = now()
      WHERE u.upld_entity = ${e.name} AND u.upld_row_cd IS NOT NULL AND u.upld_released_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM ${t} x WHERE x.${sql.identifier(e.key)} = u.upld_row_cd)`);
  }
  const gone = await rows<{ upld_stored_nm: string }>(
    db,
    sql`DELETE FROM upload
        WHERE upld_released_at IS NOT NULL
           OR (upld_row_cd IS NULL AND upld_crt_at < now() - make_interval(hours => ${UNCLAIMED_TTL_HOURS}))
        RETURNING upld_stored_nm`,
  );
  for (const g of gone) {
    // Stored names are generated hex; anything else in the table is not a file of ours.
    if (!/^[0-9a-f]{32}$/.test(g.upld_stored_nm)) continue;
    await unlink(join(dir, g.upld_stored_nm)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }
  return gone.length;
}
