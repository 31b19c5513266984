/**
 * Custom against generic plans of the list/search mix's statements at scale (issue 10): for each kind, the
 * engine's own SQL prepared on campus_bench and run with plan_cache_mode force_custom_plan and
 * force_generic_plan, printing planning + execution time and the plan's indexes. Which kinds the server runs
 * on generic plans is list-query's plannedOnce; this shows why.
 *
 *   npx tsx bench/scale/generic-plans.ts [--db campus_bench] [--verbose]
 */
import { entities } from '@campus/entities/registry';
import pg from 'pg';
import { parseArgs } from 'node:util';
import type { RequestContext } from '../../apps/server/src/access/request-context';
import { openDatabase } from '../../apps/server/src/db/client';
import { listQueries } from '../../apps/server/src/engine/crud.service';
import { parseListParams, plannedOnce } from '../../apps/server/src/engine/list-query';
import { urlOf, withClient } from '../lib/bench-db';
import { fmt, table } from '../lib/stats';

const { values: args } = parseArgs({ options: { db: { type: 'string', default: 'campus_bench' }, verbose: { type: 'boolean', default: false } } });
const url = urlOf(args.db!);
const database = await openDatabase({ databaseUrl: url });

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}
const walk = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(walk)];

await withClient(url, async (c: pg.Client) => {
  const { rows: scope } = await c.query<{ inst_cd: number; acdm_cd: number }>(
    `SELECT s.inst_cd, s.acdm_cd FROM student s JOIN academic a ON a.acdm_cd = s.acdm_cd AND a.acdm_sts GROUP BY 1, 2 ORDER BY s.inst_cd LIMIT 1`,
  );
  const { rows: sample } = await c.query<{ adm: string; nm: string }>(`SELECT stud_adm_cd AS adm, stud_fs_nm AS nm FROM student WHERE inst_cd = $1 AND acdm_cd = $2 ORDER BY md5(stud_cd::text) LIMIT 1`, [scope[0].inst_cd, scope[0].acdm_cd]);
  const ctx = {
    user: { usr_cd: 1, usr_nm: 'admin', usr_full_nm: 'Administrator', usr_id: null, rl_nm: 'ADMIN', usr_inst_cd: scope[0].inst_cd, is_admin: true },
    token: 'bench',
    instCd: scope[0].inst_cd,
    acdmCd: scope[0].acdm_cd,
    myInstCds: [scope[0].inst_cd],
    page: { module: 'student', page: 'profile' },
    perm: null,
    dataChk: false,
    selfOnly: false,
    ip: '127.0.0.1',
    platform: 'bench',
  } as RequestContext;
  const kinds: [string, Record<string, string>][] = [
    ['first page', { page: '1', size: '50' }],
    ['deep page (100)', { page: '100', size: '50' }],
    ['sorted by section', { sort: 'sec_nm', dir: 'desc', size: '50' }],
    ['partial name (4 letters)', { q: sample[0].nm.split(' ')[0].slice(0, 4).toLowerCase(), size: '50' }],
    ['last name', { q: sample[0].nm.split(' ').at(-1)!.toLowerCase(), size: '50' }],
    ['admission number', { q: sample[0].adm, size: '50' }],
  ];
  const out: (string | number)[][] = [];
  let n = 0;
  const entity = (name: string) => entities.find((e) => e.name === name)!;
  // The fee pages of the mix's other half run on generic plans too (no search): they must plan as well.
  const all: [string, Record<string, string>, string][] = [
    ...kinds.map(([l, q]): [string, Record<string, string>, string] => [l, q, 'student']),
    ['fee management by balance', { sort: 'balAmt', dir: 'desc', size: '50' }, 'fee_collection'],
    ['fee defaulters, first page', { size: '50' }, 'fee_report'],
  ];
  for (const [label, query, name] of all) {
    const e = entity(name);
    if (!e) continue;
    const p = parseListParams(e, query);
    const built = listQueries(database.db, e, { ...ctx, page: null }, p);
    for (const [part, q] of [['page', built.page], ['count', built.count]] as const) {
      const { sql, params } = q.toSQL();
      const name = `gp_${n++}`;
      await c.query(`PREPARE ${name} AS ${sql}`);
      const cells: string[] = [];
      for (const mode of ['force_custom_plan', 'force_generic_plan']) {
        await c.query(`SET plan_cache_mode = ${mode}`);
        let best: { plan: number; exec: number; nodes: PlanNode[] } | undefined;
        const lit = params.map((v) => (typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`)).join(', ');
        for (let i = 0; i < 5; i++) {
          const r = await c.query(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE ${name}(${lit})`);
          const [top] = r.rows[0]['QUERY PLAN'] as [{ Plan: PlanNode; 'Planning Time': number; 'Execution Time': number }];
          if (!best || top['Planning Time'] + top['Execution Time'] < best.plan + best.exec) best = { plan: top['Planning Time'], exec: top['Execution Time'], nodes: walk(top.Plan) };
        }
        const idx = [...new Set(best!.nodes.flatMap((x) => (x['Index Name'] ? [x['Index Name']] : [])))].filter((x) => !x.endsWith('_pkey')).join(' ');
        const removed = Math.max(0, ...best!.nodes.map((x) => x['Rows Removed by Filter'] ?? 0));
        cells.push(`${fmt(best!.plan, 2)} + ${fmt(best!.exec, 2)} ms${removed ? `, removed ${removed}` : ''} [${idx}${best!.nodes.some((x) => x['Node Type'] === 'Sort') ? ' +Sort' : ''}]`);
        if (args.verbose) console.log(label, part, mode, JSON.stringify(best!.nodes.map((x) => x['Node Type'])));
      }
      out.push([label, part, plannedOnce(p, ctx) ? 'generic' : 'custom', ...cells]);
    }
  }
  await c.query('RESET plan_cache_mode');
  console.log(`plans at ${args.db}, institute ${scope[0].inst_cd} (best of 5: planning + execution)\n`);
  console.log(table(['kind', 'statement', 'server uses', 'custom plan', 'generic plan'], out));
});
await database.close();
