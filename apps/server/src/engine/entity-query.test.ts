import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixture, type Fixture } from '../../test/student-workflow-fixture';
import { backends, startTestServer, type TestServer } from '../../test/test-server';
import type { RequestContext } from '../access/request-context';
import { contextForUser } from '../workflows/notification-rules/notification-rule.service';
import { aggregateEntityQuery, dayFromToday, parseAggregate, parseEntityQuery, runEntityQuery } from './entity-query';

const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    return `${(err as { statusCode?: number }).statusCode} ${(err as Error).message}`;
  }
  return 'accepted';
};

describe('entity query definitions', () => {
  it('refuses unknown entities, fields, operators and values with a 400 naming the part', () => {
    expect(refusal(() => parseEntityQuery({ entity: 'nope' }))).toBe("400 'nope' is not an entity.");
    expect(refusal(() => parseEntityQuery({ entity: 'student', columns: ['x'] }))).toBe("400 Columns: 'x' is not a field of Student.");
    expect(refusal(() => parseEntityQuery({ entity: 'student', where: [{ field: 'cls_cd', op: 'like', value: 1 }] }))).toContain("400 Condition 1: 'like' is not an operator");
    expect(refusal(() => parseEntityQuery({ entity: 'student', where: [{ field: 'stud_dob', op: 'eq', value: '2026-02-30' }] }))).toBe(
      "400 Condition 1: 'Date of Birth' must be a date (YYYY-MM-DD).",
    );
    expect(refusal(() => parseEntityQuery({ entity: 'student', where: [{ field: 'cls_cd', op: 'in', value: 3 }] }))).toBe("400 Condition 1: 'in' takes a list of 1 to 100 values.");
    expect(refusal(() => parseEntityQuery({ entity: 'student', sql: 'select 1' }))).toBe('400 The query has unknown part(s): sql.');
    expect(refusal(() => parseEntityQuery({ entity: 'student', limit: 501 }))).toBe("400 'limit' must be a whole number from 1 to 500.");
    expect(refusal(() => parseEntityQuery({ entity: 'student', dateFilter: { field: 'stud_dob', from: 3, to: 0 } }))).toBe("400 Date filter: 'from' must not be after 'to'.");
    expect(refusal(() => parseEntityQuery({ entity: 'employee', columns: ['usr_pwd'] }))).toBe("400 Columns: 'usr_pwd' of Employee cannot be used in a query.");
    const def = parseEntityQuery({ entity: 'student', where: [{ field: 'cls_cd', op: 'eq', value: '12' }] });
    expect(def.where).toEqual([{ field: 'cls_cd', op: 'eq', value: 12 }]);
    expect(refusal(() => parseAggregate(def, { fn: 'sum', field: 'stud_fs_nm' }))).toBe("400 Sum: 'stud_fs_nm' of Student is not a number or an amount.");
    expect(refusal(() => parseAggregate(def, { fn: 'count', by: { day: 'stud_fs_nm' } }))).toBe("400 Group by day: 'stud_fs_nm' of Student is not a date.");
  });

  it('counts days from the given day across month ends', () => {
    expect(dayFromToday(3, '2026-01-30')).toBe('2026-02-02');
    expect(dayFromToday(-29, '2026-03-01')).toBe('2026-01-31');
  });
});

describe.each(backends)('entity query runs with the scope on %s', (backend) => {
  let srv: TestServer;
  let f: Fixture;
  let adminCtx: RequestContext;
  let teacherCtx: RequestContext;

  beforeAll(async () => {
    srv = await startTestServer(backend);
    f = await makeFixture(srv);
    const teacher = await f.employee([{ module: 'student', page: 'profile', buttons: 'view' }], true, [f.secA]);
    adminCtx = (await contextForUser(srv.database.db, f.admin.usr_cd, f.admin.instCd, 'student'))!;
    teacherCtx = (await contextForUser(srv.database.db, teacher.usr_cd, teacher.instCd, 'student'))!;
  });
  afterAll(async () => srv?.close());

  const mine = () => parseEntityQuery({ entity: 'student', where: [{ field: 'cls_cd', op: 'in', value: [f.cls1, f.cls2] }] });

  it('counts by a field, largest first, within the viewer scope', async () => {
    expect(teacherCtx.dataChk).toBe(true);
    const all = await aggregateEntityQuery(srv.database.db, adminCtx, mine(), { fn: 'count', by: { field: 'sec_cd' } });
    expect(all.total.count).toBe(f.studA.length + f.studB.length + f.studC.length);
    // Largest first, then by name: A (3), B (1), C (1).
    expect(all.groups.map((g) => [g.key, g.label, g.count])).toEqual([
      [f.secA, 'A', f.studA.length],
      [f.secB, 'B', f.studB.length],
      [f.secC, 'C', f.studC.length],
    ]);
    expect(all.groups[0].label).toBe('A');
    const his = await aggregateEntityQuery(srv.database.db, teacherCtx, mine(), { fn: 'count', by: { field: 'sec_cd' } });
    expect(his).toEqual({ groups: [{ key: f.secA, label: 'A', count: f.studA.length }], total: { count: f.studA.length } });
  });

  it('sums a number exactly and groups by day', async () => {
    const def = mine();
    const byDay = await aggregateEntityQuery(srv.database.db, adminCtx, def, parseAggregate(def, { fn: 'sum', field: 'stud_roll_nmb', by: { day: 'stud_doj' } }));
    const n = f.studA.length + f.studB.length + f.studC.length;
    expect(byDay.total.count).toBe(n);
    // The fixture's rolls: 1, 2, 3 in A and 1 in B and C each.
    expect(byDay.total.sum).toBe('8');
    // Students made through the API carry no joining date: one group without a day, holding them all.
    expect(byDay.groups).toEqual([{ key: null, label: '', count: n, sum: '8' }]);
    const rowsAnswer = await runEntityQuery(srv.database.db, teacherCtx, def, { maxRows: 2 });
    expect(rowsAnswer.count).toBe(f.studA.length);
    expect(rowsAnswer.rows).toHaveLength(2);
  });
});
