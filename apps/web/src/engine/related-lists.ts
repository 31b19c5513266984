import type { AnyEntity, RelatedList } from '@campus/entities/define';
import { pagesOfEntity } from '@campus/entities/pages';
import type { EntityRow } from './entity-api';
import { modePath } from './entity-mode';

/**
 * The equality filters a list's URL carries (`?f_wlt_cd=12`, as a wallet's Statement opens its movements):
 * only declared link, select and code fields, one plain value each. The server checks them again.
 */
export function urlFilters(entity: AnyEntity, params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of params) {
    if (!k.startsWith('f_') || v.trim() === '') continue;
    const name = k.slice(2);
    const f = Object.hasOwn(entity.fields, name) ? entity.fields[name] : undefined;
    if (f && (f.kind === 'link' || f.kind === 'select' || f.kind === 'code')) out[name] = v.trim();
  }
  return out;
}

/** The related entity's list, filtered to the row (null when no page shows that entity). */
export function relatedListPath(entity: AnyEntity, r: RelatedList, row: EntityRow): string | null {
  const page = pagesOfEntity(r.entity)[0];
  const id = row[entity.key];
  if (!page || id === null || id === undefined) return null;
  return `${modePath(page.module, page.page, 'table')}?f_${r.field}=${encodeURIComponent(String(id))}`;
}
