import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prefixUpperBound } from '../src/engine/list-query';
import { feeWorld, type FeeWorld } from './fee-fixture';
import { backends, call, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;
interface ListBody {
  rows: Row[];
  total: number;
  total_exact: boolean;
}

describe('the exact-code prefix range', () => {
  it('raises the last character, so the range holds exactly the texts starting with the prefix', () => {
    expect(prefixUpperBound('adm/8/00432')).toBe('adm/8/00433');
    expect(prefixUpperBound('sms/2025/')).toBe('sms/20250');
    expect(prefixUpperBound('அ')).toBe('ஆ');
    expect(prefixUpperBound('\u{10ffff}')).toBeUndefined();
  });
});

describe.each(backends)('list answers on %s: codes, columns and totals', (backend) => {
  let srv: TestServer;
  let w: FeeWorld;
  let grid: Session;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    srv = await startTestServer(backend);
    w = await feeWorld(srv);
    grid = w.as(w.admin, 'student', 'profile');
    ids.first = await w.student(w.secA, `Kavya ${w.tag}`, undefined, `SMS/${w.tag}/0101`);
    ids.second = await w.student(w.secA, `Karthik ${w.tag}`, undefined, `SMS/${w.tag}/0102`);
    ids.other = await w.student(w.secB, `Divya ${w.tag}`, undefined, `OLD/${w.tag}/0101`);
  });
  afterAll(async () => srv?.close());

  const list = async (query: string): Promise<ListBody> => {
    const res = await call(srv.app, grid, 'GET', `/api/student/?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ListBody>();
  };
  const idsOf = (b: ListBody): number[] => b.rows.map((r) => Number(r.stud_cd));

  it('finds an admission number typed whole or by its start, in any case, and not by its middle', async () => {
    expect(idsOf(await list(`q=${encodeURIComponent(`SMS/${w.tag}/0101`)}`))).toEqual([ids.first]);
    expect(idsOf(await list(`q=${encodeURIComponent(`sms/${w.tag.toLowerCase()}/010`)}`)).sort()).toEqual([ids.first, ids.second].sort());
    // The middle of a code is no start of it: '0101' is not how the office types SMS/.../0101.
    expect(idsOf(await list(`q=${encodeURIComponent(`${w.tag}/0101`)}`))).toEqual([]);
    // LIKE's wildcards are plain characters in a code.
    expect(idsOf(await list(`q=${encodeURIComponent('SMS/%')}`))).toEqual([]);
  });

  it('still finds names by any part of them', async () => {
    expect(idsOf(await list(`q=${encodeURIComponent(`avya ${w.tag}`)}`))).toEqual([ids.first]);
  });

  it('answers a full list with an exact total and a short page without a count', async () => {
    const all = await list(`q=${w.tag}&size=2`);
    expect(all).toMatchObject({ total: 3, total_exact: true });
    expect(all.rows).toHaveLength(2);
    const last = await list(`q=${w.tag}&size=2&page=2`);
    expect(last).toMatchObject({ total: 3, total_exact: true });
    expect(last.rows).toHaveLength(1);
    const beyond = await list(`q=${w.tag}&size=2&page=5`);
    expect(beyond).toMatchObject({ rows: [], total: 3, total_exact: true });
  });

  it('gives only the asked columns with the key and row_ver, and joins only their links', async () => {
    const body = await list(`q=${w.tag}&cols=stud_fs_nm,sec_nm&sort=stud_fs_nm`);
    expect(body.rows[0]).toEqual({ stud_cd: ids.other, stud_fs_nm: `Divya ${w.tag}`, sec_cd: w.secB, sec_nm: 'B', row_ver: 1 });
    // Sorted by a link it does not show: still joined for the order, not shown.
    const bySection = await list(`q=${w.tag}&cols=stud_adm_cd&sort=sec_nm&dir=desc`);
    expect(bySection.rows.map((r) => Object.keys(r).sort())).toEqual(Array(3).fill(['row_ver', 'stud_adm_cd', 'stud_cd']));
    expect(Number(bySection.rows[0].stud_cd)).toBe(ids.other);
    // Without cols the answer is the whole row, as always.
    const whole = (await list(`q=${encodeURIComponent(`SMS/${w.tag}/0101`)}`)).rows[0];
    expect(whole).toMatchObject({ cls_cd: w.cls, cls_nm: w.clsNm, sec_nm: 'A', stud_adm_cd: `SMS/${w.tag}/0101` });
  });

  it('documents cols, and that an admission number is matched from its start', async () => {
    const doc = (await call(srv.app, grid, 'GET', '/api/docs/json')).json<{
      paths: Record<string, { get: { parameters?: { name: string; in: string; description?: string }[] } }>;
    }>();
    const params = doc.paths['/api/student/'].get.parameters ?? [];
    expect(params.find((p) => p.name === 'cols')?.description).toMatch(/^Comma-separated field names to return/);
    expect(params.find((p) => p.name === 'q')?.description).toMatch(/Admission No: from the start only\.$/);
  });

  it('refuses a column that is not declared, naming it', async () => {
    for (const cols of ['stud_fs_nm,nope', 'stud_fs_nm,"; drop table student', '__proto__']) {
      const res = await call(srv.app, grid, 'GET', `/api/student/?cols=${encodeURIComponent(cols)}`);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(/is not a column of Student: 'cols' takes its field names, separated by commas\.$/);
    }
  });
});
