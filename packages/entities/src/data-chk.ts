import type { PageDef } from './pages';
import { findEntity } from './registry';

/*
 * 'Access his students only' (usr_need_data_chk) narrows a page only where its entity declares whose rows are
 * whose (an ownership). Elsewhere the flag is refused when saved, the editor greys it out, and a row already
 * stored with it grants nothing (access/permission.ts): no page takes the flag and shows everything anyway.
 */

/** Does the flag narrow this page's rows? */
export function dataChkApplies(pg: Pick<PageDef, 'entity'>): boolean {
  const e = pg.entity === undefined ? undefined : findEntity(pg.entity);
  return e?.ownership !== undefined;
}

/** Why the editor cannot tick the flag for this page (its tooltip). */
export const dataChkNotApplicable = (pg: Pick<PageDef, 'label'>): string =>
  `The rows of ${pg.label} belong to no particular student, so 'Access His Students Only' cannot limit them.`;

/** The save's refusal for an allowed page given with the flag where it does not apply. */
export const dataChkRefusal = (pg: Pick<PageDef, 'label'>): string =>
  `'Access His Students Only' cannot be given on ${pg.label}: its rows belong to no particular student. Save ${pg.label} without it.`;
