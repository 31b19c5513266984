import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { mustCtx } from '../../access/request-context';
import { rows, sql, type Db } from '../../db/client';
import { badRequest, forbidden } from '../../lib/http-error';
import { secretSettings } from './institute-setting';

/** A secret (the payment gateway's key) is written to the database, never read back through the API. */
const isSecret = (code: string): boolean => (secretSettings as readonly string[]).includes(code.trim().toUpperCase());

const saveBody = z.object({
  tbl_setg_usr_cd: z.coerce.number().int().positive(),
  tbl_setg_tbl_nm: z.string().trim().min(1).max(100),
  tbl_setg_obj: z.unknown(),
});
const resetBody = z.object({ tbl: z.string().trim().min(1).max(100), usrCd: z.coerce.number().int().positive() });

export function registerSettingRoutes(app: FastifyInstance, db: Db): void {
  const tags = ['Setting'];
  const signedIn = { access: { kind: 'signed-in' as const } };

  app.get('/api/setting/', { config: signedIn, schema: { tags, summary: 'Institute settings, or one by ?setg_unq_cd' } }, async (req) => {
    const ctx = mustCtx(req);
    const code = (req.query as { setg_unq_cd?: string }).setg_unq_cd;
    const list = (
      await rows<{ setg_unq_cd: string }>(
        db,
        sql`SELECT setg_cd, setg_unq_cd, setg_nm, setg_val FROM setting WHERE inst_cd = ${ctx.instCd}
            ${code ? sql`AND setg_unq_cd = ${code}` : sql``} ORDER BY setg_unq_cd`,
      )
    ).filter((s) => !isSecret(s.setg_unq_cd));
    return code ? (list[0] ?? null) : list;
  });

  app.get('/api/setting/object', { config: signedIn, schema: { tags, summary: 'Institute settings as one object' } }, async (req) => {
    const ctx = mustCtx(req);
    const list = await rows<{ setg_unq_cd: string; setg_val: string | null }>(db, sql`SELECT setg_unq_cd, setg_val FROM setting WHERE inst_cd = ${ctx.instCd}`);
    return Object.fromEntries(list.filter((s) => !isSecret(s.setg_unq_cd)).map((s) => [s.setg_unq_cd, s.setg_val]));
  });

  // The spec's path has a double slash (/api/setting//tablesettings); the server folds duplicate slashes.
  app.post('/api/setting/tablesettings', { config: signedIn, schema: { tags, summary: "Save the user's grid layout (Update State)" } }, async (req) => {
    const ctx = mustCtx(req);
    const body = saveBody.safeParse(req.body);
    if (!body.success) throw badRequest(body.error.issues[0]?.message ?? 'Invalid table settings.');
    if (body.data.tbl_setg_usr_cd !== ctx.user.usr_cd) throw forbidden("You can only save your own table layout.");
    const obj = JSON.stringify(body.data.tbl_setg_obj ?? null);
    if (obj.length > 100_000) throw badRequest('The table layout is too large.');
    const [saved] = await rows<Record<string, unknown>>(
      db,
      sql`INSERT INTO table_setting (tbl_setg_usr_cd, tbl_setg_tbl_nm, tbl_setg_obj, crt_by)
          VALUES (${ctx.user.usr_cd}, ${body.data.tbl_setg_tbl_nm}, ${obj}::jsonb, ${ctx.user.usr_cd})
          ON CONFLICT (tbl_setg_usr_cd, tbl_setg_tbl_nm) DO UPDATE SET tbl_setg_obj = EXCLUDED.tbl_setg_obj,
            row_ver = table_setting.row_ver + 1, updt_dt = now(), updt_by = EXCLUDED.crt_by
          RETURNING tbl_setg_cd, tbl_setg_usr_cd, tbl_setg_tbl_nm, tbl_setg_obj`,
    );
    return saved;
  });

  app.put('/api/setting/tablesettings', { config: signedIn, schema: { tags, summary: 'The saved layout to restore (Reset State)' } }, async (req) => {
    const ctx = mustCtx(req);
    const body = resetBody.safeParse(req.body);
    if (!body.success) throw badRequest(body.error.issues[0]?.message ?? 'Invalid request.');
    if (body.data.usrCd !== ctx.user.usr_cd) throw forbidden('You can only read your own table layout.');
    const [s] = await rows<{ tbl_setg_obj: unknown }>(
      db,
      sql`SELECT tbl_setg_obj FROM table_setting WHERE tbl_setg_usr_cd = ${ctx.user.usr_cd} AND tbl_setg_tbl_nm = ${body.data.tbl}`,
    );
    return { tbl_setg_obj: s?.tbl_setg_obj ?? null };
  });
}
