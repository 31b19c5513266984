import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

/** The sentence of a refused backup path (the row's save: 400; a run: its failure). */
export const outsideRoot = (path: string, root: string): string =>
  `The backup path '${path}' is outside the backup folder ${root}: give a folder inside it, e.g. 'daily' or 'backups/daily'.`;

/**
 * Where a backup row's files go: bckp_path is a folder inside BACKUP_ROOT, written relative to it ('daily',
 * 'backups/daily') or as an absolute path inside it. Refused (the sentence, else null): '..' escapes, absolute
 * paths elsewhere, and any existing part of the path that is a symbolic link leading out of the root.
 */
export function backupDirRefusal(path: string, root: string): string | null {
  const p = path.trim();
  if (p === '' || p.includes('\0')) return 'Give the backup path: a folder inside the backup folder.';
  const full = isAbsolute(p) ? resolve(p) : resolve(root, p);
  const rel = relative(root, full);
  if (rel === '' ) return null;
  if (rel.startsWith('..') || isAbsolute(rel) || p.split(/[\\/]/).includes('..')) return outsideRoot(p, root);
  // Symbolic links: the deepest part of the path that exists must resolve inside the root's own real path.
  const realRoot = existsSync(root) ? realpathSync(root) : root;
  let probe = full;
  while (!existsSync(probe) && probe !== root && probe.startsWith(root + sep)) probe = resolve(probe, '..');
  if (existsSync(probe)) {
    const real = realpathSync(probe);
    const r = relative(realRoot, real);
    if (r.startsWith('..') || isAbsolute(r)) return outsideRoot(p, root);
  }
  return null;
}

/** The folder of a backup row, checked again (the row may predate the setting; a link may have appeared). */
export function backupDir(path: string, root: string): string {
  const refusal = backupDirRefusal(path, root);
  if (refusal) throw new Error(refusal);
  const p = path.trim();
  return isAbsolute(p) ? resolve(p) : join(root, p);
}
