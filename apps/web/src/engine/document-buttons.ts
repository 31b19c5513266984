import type { AnyEntity, DocumentButton } from '@campus/entities/define';
import { entityUrl, rowId, type EntityRow } from './entity-api';

/**
 * The entity's documents (a certificate's PDF) this user may print: only those whose permission button the
 * page grants render, like toggles; the server's document route checks the same button again.
 */
export function permittedDocuments(entity: AnyEntity, can: (button: string) => boolean): readonly DocumentButton[] {
  return (entity.documents ?? []).filter((d) => can(d.button));
}

/** The PDF of one row, under the row's own URL: /api/certificate/12/pdf. */
export const documentUrl = (entity: AnyEntity, d: DocumentButton, row: EntityRow): string => entityUrl(entity, `${encodeURIComponent(rowId(entity, row))}/${d.path}`);
