import { registerHooks, type Row } from '../../engine/entity-hooks';
import { badRequest } from '../../lib/http-error';
import { backupDirRefusal } from './backup-path';
import { backupTiming } from './backup-timing';

let registered = false;
/** The backup root the saves are checked against (the server's BACKUP_ROOT; hooks are registered once). */
let root = '';

function check(values: Row): void {
  if (values.bckp_path !== undefined) {
    const refusal = backupDirRefusal(String(values.bckp_path ?? ''), root);
    if (refusal) throw badRequest(refusal, [{ field: 'bckp_path', message: refusal }]);
  }
  const t = backupTiming(String(values.bckp_typ ?? 'Daily'), values.bckp_typ_vl as string | null | undefined);
  if ('refusal' in t) throw badRequest(t.refusal, [{ field: 'bckp_typ_vl', message: t.refusal }]);
}

/** A backup row's folder stays inside BACKUP_ROOT and its 'Run At' fits its frequency: else the save is a 400. */
export function registerBackupHooks(backupRoot: string): void {
  root = backupRoot;
  if (registered) return;
  registered = true;
  registerHooks('backup', {
    async beforeCreate(_tx, _ctx, values) {
      check(values);
    },
    async beforeUpdate(_tx, _ctx, before, changes) {
      check({ ...before, ...changes });
    },
  });
}
