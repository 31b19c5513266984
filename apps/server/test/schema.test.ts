import { describe, expect, it } from 'vitest';
import { pendingStatements, touchesViewTable } from '../src/db/generate-migration';

describe('migrations', () => {
  it('the committed migrations match the declarations (run npm run db:generate after changing one)', async () => {
    const { statements } = await pendingStatements();
    expect(statements).toEqual([]);
  });
});

describe('views in migrations', () => {
  const views = [{ table: 'fee_collection_v', select: 'SELECT s.stud_cd FROM student s JOIN fee f ON f.cls_cd = s.cls_cd' }];
  it('are rebuilt around a change to a table they read, and left alone for new tables and indexes', () => {
    expect(touchesViewTable('ALTER TABLE "fee" ADD COLUMN "fee_nm" varchar(300);', views)).toBe(true);
    expect(touchesViewTable('DROP TABLE "student" CASCADE;', views)).toBe(true);
    expect(touchesViewTable('ALTER TABLE "bus_trip" ADD CONSTRAINT "x_fk" FOREIGN KEY ("bs_trck_cd") REFERENCES "bus"("bs_trck_cd");', views)).toBe(false);
    expect(touchesViewTable('CREATE TABLE "fee_extra" ("x" integer);', views)).toBe(false);
    expect(touchesViewTable('CREATE INDEX "fee_idx" ON "fee" ("fee_cd");', views)).toBe(false);
    // 'fee' inside 'fee_group' is not the fee table.
    expect(touchesViewTable('ALTER TABLE "fee_group" ADD COLUMN "x" integer;', [{ table: 'v', select: 'SELECT 1 FROM fee' }])).toBe(false);
  });
});
