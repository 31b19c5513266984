import type { AnyEntity, Field } from '@campus/entities/define';
import { and, eq, isNull } from 'drizzle-orm';
import type { RequestContext } from '../access/request-context';
import type { Tx } from '../db/client';
import { upload } from '../db/tables';
import { badRequest } from '../lib/http-error';
import type { Row } from './entity-hooks';

/** Image and file fields hold an upload: the client sends its file_id, the row keeps the file's name. */
export const isUploadField = (f: Field): f is Extract<Field, { kind: 'image' | 'file' }> => f.kind === 'image' || f.kind === 'file';

/** One image/file field a write sets: the upload it takes (by upld_cd), or null when it clears the field. */
export interface UploadClaim {
  field: string;
  upldCd: number | null;
}

/**
 * For each image/file field the write sets, checks that the value is the file_id of an upload the same user
 * made in the same institute for this entity and field, and that no row has taken it yet; then puts the
 * file's original name in its place, which is what the row stores and the grid shows. The uploads are
 * locked until the write commits, so two writes cannot take the same file.
 */
export async function takeUploads(tx: Tx, e: AnyEntity, ctx: RequestContext, values: Row): Promise<UploadClaim[]> {
  const out: UploadClaim[] = [];
  for (const [name, f] of Object.entries(e.fields)) {
    if (!isUploadField(f) || !(name in values) || values[name] === undefined) continue;
    const v = values[name];
    if (v === null) {
      out.push({ field: name, upldCd: null });
      continue;
    }
    const [u] = await tx.select().from(upload).where(eq(upload.upld_id, String(v))).for('update');
    const mine =
      u !== undefined &&
      u.usr_cd === ctx.user.usr_cd &&
      u.inst_cd === ctx.instCd &&
      u.upld_entity === e.name &&
      u.upld_field === name &&
      u.upld_row_cd === null &&
      u.upld_released_at === null;
    if (!mine) {
      const message = `'${f.label}' is not a file uploaded for it. Choose the file again.`;
      throw badRequest(message, [{ field: name, message }]);
    }
    values[name] = u.upld_orig_nm;
    out.push({ field: name, upldCd: u.upld_cd });
  }
  return out;
}

/**
 * Inside the write's transaction, once the row key is known: the row's previous file of each field is
 * released (the upload sweep deletes it later, see docs/decisions.md 'Files and images') and the new
 * upload is claimed by the row.
 */
export async function claimUploads(tx: Tx, e: AnyEntity, rowId: number, claims: readonly UploadClaim[]): Promise<void> {
  for (const c of claims) {
    await tx
      .update(upload)
      .set({ upld_released_at: new Date() })
      .where(and(eq(upload.upld_entity, e.name), eq(upload.upld_field, c.field), eq(upload.upld_row_cd, rowId), isNull(upload.upld_released_at)));
    if (c.upldCd !== null) await tx.update(upload).set({ upld_row_cd: rowId }).where(eq(upload.upld_cd, c.upldCd));
  }
}
