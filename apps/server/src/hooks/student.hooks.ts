import { rows, sql, type Tx } from '../db/client';
import { registerHooks, type Row } from '../engine/entity-hooks';
import { badRequest } from '../lib/http-error';

/**
 * A student's section must be one of the chosen class's sections: class VI with a section of class VII would
 * put the student on no register at all. The engine has already checked that both exist in the institute.
 */
async function assertSectionOfClass(tx: Tx, row: Row): Promise<void> {
  if (row.cls_cd === null || row.cls_cd === undefined || row.sec_cd === null || row.sec_cd === undefined) return;
  const [sec] = await rows<{ cls_cd: number; sec_nm: string }>(tx, sql`SELECT cls_cd, sec_nm FROM section WHERE sec_cd = ${Number(row.sec_cd)}`);
  if (sec && Number(sec.cls_cd) === Number(row.cls_cd)) return;
  const message = `Section '${sec?.sec_nm ?? String(row.sec_cd)}' is not a section of the chosen class.`;
  throw badRequest(message, [{ field: 'sec_cd', message }]);
}

export function registerStudentHooks(): void {
  registerHooks('student', {
    async beforeCreate(tx, _ctx, values) {
      await assertSectionOfClass(tx, values);
    },
    async beforeUpdate(tx, _ctx, before, changes) {
      // Either end may move: a new class with the old section is as wrong as a foreign section.
      if (!('cls_cd' in changes) && !('sec_cd' in changes)) return;
      await assertSectionOfClass(tx, { ...before, ...changes });
    },
  });
}
