import { entities } from '@campus/entities/registry';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestContext } from '../src/access/request-context';
import { listQueries, listRows } from '../src/engine/crud.service';
import { parseListParams } from '../src/engine/list-query';
import { lastName, loadScaleStudents } from './list-scale-fixture';
import { startTestServer, type TestServer } from './test-server';

/**
 * The plans of the counter's student finder (student_detail_v) at a large school's size: two institutes of
 * 10,010 students, each with a father's name and a stored fee position. PostgreSQL only; bulk SQL, a few
 * seconds. The finder's search must reach the student table's indexes through the view (issue 10: an
 * admission number in <= 10 ms, it took 108 ms filtering the whole school).
 */

const PER_INSTITUTE = 10_010;
const studentDetail = entities.find((e) => e.name === 'student_detail')!;

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

const walk = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(walk)];
const indexes = (nodes: PlanNode[]): string[] => nodes.flatMap((n) => (n['Index Name'] ? [n['Index Name']] : []));
const mostRemoved = (nodes: PlanNode[]): number => Math.max(0, ...nodes.map((n) => n['Rows Removed by Filter'] ?? 0));
const seqScanned = (nodes: PlanNode[]): string[] => nodes.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name'] ?? '');

describe.skipIf(!process.env.DATABASE_URL)("the counter's finder plans at 10,000 students a school (PostgreSQL)", () => {
  let srv: TestServer;
  let client: pg.Client;
  let ctx: RequestContext;
  let adm: string;
  let father: string;
  const timings: string[] = [];

  beforeAll(async () => {
    srv = await startTestServer('postgres');
    client = new pg.Client({ connectionString: srv.cfg.databaseUrl });
    await client.connect();
    await loadScaleStudents(client, 2, PER_INSTITUTE);
    // Fathers' names and the stored positions (all zero: no fees here), written in bulk with the triggers off.
    await client.query(`
      set session_replication_role = replica;
      update student s set stud_fthr_nm = 'Raman ' || initcap(l.nm) from scale_last l where l.n = (s.stud_cd * 13) % 1000 and s.inst_cd in (select inst_cd from scale_inst);
      insert into fee_position (stud_cd, inst_cd, acdm_cd) select stud_cd, inst_cd, acdm_cd from student where inst_cd in (select inst_cd from scale_inst) on conflict do nothing;
      reset session_replication_role;
    `);
    for (const t of ['student', 'fee_position']) await client.query(`vacuum analyze ${t}`);
    const { rows } = await client.query<{ inst_cd: number; acdm_cd: number; stud_adm_cd: string; stud_fthr_nm: string }>(
      `select i.inst_cd, a.acdm_cd, s.stud_adm_cd, s.stud_fthr_nm from scale_inst i join academic a using (inst_cd)
         join student s on s.inst_cd = i.inst_cd and s.acdm_cd = a.acdm_cd where i.n = 2 order by s.stud_cd limit 1 offset 4321`,
    );
    adm = rows[0].stud_adm_cd;
    father = rows[0].stud_fthr_nm;
    ctx = {
      user: { usr_cd: 1, usr_nm: 'admin', usr_full_nm: 'Administrator', usr_id: null, rl_nm: 'ADMIN', usr_inst_cd: rows[0].inst_cd, is_admin: true },
      token: 'test',
      instCd: rows[0].inst_cd,
      acdmCd: rows[0].acdm_cd,
      myInstCds: [rows[0].inst_cd],
      page: { module: 'fee', page: 'quick_fee_collection' },
      perm: null,
      dataChk: false,
      selfOnly: false,
      ip: '127.0.0.1',
      platform: 'test',
    } as RequestContext;
  }, 120_000);

  afterAll(async () => {
    if (timings.length) console.log(`finder plans at ${2 * PER_INSTITUTE} students:\n${timings.join('\n')}`);
    await client?.end();
    await srv?.close();
  });

  async function plan(label: string, query: Record<string, string>): Promise<PlanNode[]> {
    const { sql, params } = listQueries(srv.database.db, studentDetail, ctx, parseListParams(studentDetail, query)).page.toSQL();
    const res = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number; 'Planning Time': number }] }>(
      `explain (analyze, format json) ${sql}`,
      params,
    );
    const [top] = res.rows[0]['QUERY PLAN'];
    timings.push(`  ${label}: planning ${top['Planning Time'].toFixed(2)} ms, execution ${top['Execution Time'].toFixed(2)} ms`);
    return walk(top.Plan);
  }

  const found = async (q: string) => (await listRows(srv.database.db, studentDetail, ctx, parseListParams(studentDetail, { q, size: '20' }))).rows;

  it("finds an admission number through the student's code index, not by filtering the school", async () => {
    const nodes = await plan('admission number', { q: adm, size: '20' });
    expect(indexes(nodes)).toContain('student_stud_adm_cd_code');
    expect(seqScanned(nodes)).not.toContain('student');
    expect(mostRemoved(nodes)).toBeLessThan(100);
    expect((await found(adm)).map((r) => r.stud_adm_cd)).toEqual([adm]);
    const prefix = await plan('admission number prefix', { q: adm.slice(0, -1).toLowerCase(), size: '20' });
    expect(indexes(prefix)).toContain('student_stud_adm_cd_code');
    expect(mostRemoved(prefix)).toBeLessThan(100);
  });

  it("finds a child's or a father's name through the finder's trigram index on student", async () => {
    const byName = await plan('last name', { q: lastName(371), size: '20' });
    expect(indexes(byName)).toContain('student_finder_search_trgm');
    expect(seqScanned(byName)).not.toContain('student');
    const byFather = await plan("father's name", { q: father, size: '20' });
    expect(indexes(byFather)).toContain('student_finder_search_trgm');
    expect(mostRemoved(byFather)).toBeLessThan(1_000);
    const rows = await found(father);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => String(r.stud_fthr_nm).toLowerCase().includes(father.toLowerCase()) || String(r.stud_fs_nm).toLowerCase().includes(father.toLowerCase()))).toBe(true);
  });
});
