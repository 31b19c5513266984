/**
 * The {mode} part of sms/{module}/{page}/{mode} (spec section 2), parsed into a tagged value so the page
 * component can switch on it exhaustively.
 */
export type EntityMode =
  | { kind: 'table'; search: boolean }
  | { kind: 'create' }
  | { kind: 'import' }
  | { kind: 'update' | 'view' | 'clone'; id: string };

export type FormModeKind = 'create' | 'update' | 'view' | 'clone';

// Keys are code fields (positive integers); anything else cannot name a row, so it is a bad URL.
const ID_RE = /^[1-9]\d{0,15}$/;

/** Returns null for a path that is not one of the spec's modes. */
export function parseMode(rest: string | undefined): EntityMode | null {
  const parts = (rest ?? '').split('/').filter((s) => s !== '');
  const [head, ...tail] = parts;
  switch (head) {
    case 'table':
      if (tail.length === 0) return { kind: 'table', search: false };
      if (tail.length === 1 && tail[0] === 'search') return { kind: 'table', search: true };
      return null;
    case 'create':
    case 'import':
      return tail.length === 0 ? { kind: head } : null;
    case 'update':
    case 'view':
    case 'clone':
      return tail.length === 1 && ID_RE.test(tail[0]) ? { kind: head, id: tail[0] } : null;
    default:
      return null;
  }
}

/** Browser path of a page mode, e.g. modePath('master', 'religion', 'update', 5) -> /sms/master/religion/update/5. */
export function modePath(module: string, page: string, mode: 'table' | 'create' | 'import' | FormModeKind, id?: string | number): string {
  const base = `/sms/${module}/${page}/${mode}`;
  return id === undefined ? base : `${base}/${encodeURIComponent(String(id))}`;
}
