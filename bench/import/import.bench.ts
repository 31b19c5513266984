/**
 * Student import at size (issue 10): one .xlsx of 10,000 and one of 50,000 new students (written with
 * ExcelJS, class and section by name as a clerk types them), uploaded to the import call the web import
 * page uses (POST /api/student/import, multipart, first with ?dryRun=1 as its 'Check' button, then for
 * real), on PostgreSQL and on PGlite, each on a fresh demo database started as `npm run serve` starts it.
 * Prints seconds, or the server's refusal as the figure when it refuses the file.
 *
 *   npm run bench:import
 *   npm run bench:import -- --sizes 10000 --backends postgres
 */
import ExcelJS from 'exceljs';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { headersOf, signIn } from '../lib/api-session';
import { gitCommit, recreateDatabase, urlOf, withClient } from '../lib/bench-db';
import { BENCH_ADMIN_PASSWORD, repoRoot, startServer } from '../lib/server-process';
import { loadAverage, table } from '../lib/stats';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,50000' },
    backends: { type: 'string', default: 'postgres,pglite' },
    db: { type: 'string', default: 'campus_bench_import' },
    // A refusal can come only after the whole sheet is read: past this the answer is 'none within N s'.
    timeout: { type: 'string', default: '300' },
    // Another checkout to run the server from (a worktree of the commit before a change), for before/after.
    root: { type: 'string' },
  },
});
const sizes = args.sizes!.split(',').map(Number);
const backends = args.backends!.split(',') as ('postgres' | 'pglite')[];

console.log(`bench:import  commit ${await gitCommit(repoRoot)}  ${new Date().toISOString()}`);

interface School {
  instCd: number;
  acdmCd: number;
  sections: { cls: string; sec: string }[];
}

async function workbook(n: number, prefix: string, school: School): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Student');
  ws.addRow(['Student Name', 'Admission No', 'Class', 'Section', 'Gender', "Father's Name", 'Phone', 'Medium']);
  const first = ['Arun', 'Priya', 'Karthik', 'Divya', 'Suresh', 'Lakshmi', 'Vijay', 'Meena', 'Ravi', 'Anitha', 'Farhan', 'Mary'];
  const family = ['Kumar', 'Raman', 'Pillai', 'Iyer', 'Natarajan', 'Krishnan', 'Joseph', 'Basha', 'Thomas', 'Subramanian'];
  for (let i = 1; i <= n; i++) {
    const s = school.sections[i % school.sections.length];
    const fam = family[(i * 7) % family.length];
    ws.addRow([
      `${first[i % first.length]} ${fam}`,
      `${prefix}/${String(i).padStart(6, '0')}`,
      s.cls,
      s.sec,
      i % 2 ? 'Male' : 'Female',
      `${first[(i * 3) % first.length]} ${fam}`,
      `+91 98${String(i).padStart(3, '0').slice(-3)} ${String(10000 + i).slice(-5)}`,
      'English',
    ]);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/**
 * The server's node process (the one started with this port), found through /proc: its peak resident memory
 * is reset before each upload (clear_refs 5) and read after, so each step reports its own peak.
 */
function serverPid(port: string): number | undefined {
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8');
      if (!cmd.startsWith('node') || !cmd.includes('serve.mjs')) continue;
      if (readFileSync(`/proc/${d}/environ`, 'utf8').split('\0').includes(`PORT=${port}`)) return Number(d);
    } catch {
      /* gone, or not ours */
    }
  }
  return undefined;
}
const statusKb = (pid: number, key: string): number => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
function resetPeak(pid: number | undefined): void {
  if (pid) writeFileSync(`/proc/${pid}/clear_refs`, '5');
}
const peakMb = (pid: number | undefined): number => (pid ? Math.round(statusKb(pid, 'VmHWM') / 1024) : NaN);
const rssMb = (pid: number | undefined): number => (pid ? Math.round(statusKb(pid, 'VmRSS') / 1024) : NaN);

interface Outcome {
  backend: string;
  rows: number;
  fileKb: number;
  step: string;
  seconds: number;
  /** The server's peak resident memory during the step, and its resident memory before it. */
  peakMb: number;
  beforeMb: number;
  answer: string;
}

const TIMEOUT_S = Number(args.timeout);

/**
 * Uploads as the web page does, asking for progress lines (a server from before them answers plain JSON):
 * the time each line arrives says where the seconds go (reading, checking, each INSERT batch, the end).
 */
async function upload(base: string, headers: Record<string, string>, name: string, file: Buffer, dryRun: boolean): Promise<{ seconds: number; status: number; body: string; phases: string }> {
  const fd = new FormData();
  fd.append('file', new Blob([new Uint8Array(file)], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }), name);
  const t0 = performance.now();
  const at = (): string => ((performance.now() - t0) / 1000).toFixed(1);
  try {
    const res = await fetch(`${base}/api/student/import${dryRun ? '?dryRun=1' : ''}`, {
      method: 'POST',
      headers: { ...headers, dontShowMsg: '1', accept: 'application/x-ndjson' },
      body: fd,
      signal: AbortSignal.timeout(TIMEOUT_S * 1000),
    });
    if (!(res.headers.get('content-type') ?? '').includes('application/x-ndjson') || !res.body) {
      const body = await res.text();
      return { seconds: (performance.now() - t0) / 1000, status: res.status, body, phases: '' };
    }
    let status = res.status;
    let body = '';
    const seen = new Map<string, { first: string; last: string }>();
    const writes: string[] = [];
    const take = (raw: string): void => {
      if (raw.trim() === '') return;
      const line = JSON.parse(raw) as { phase?: string; done?: number; result?: unknown; error?: { statusCode: number } };
      if (line.phase) {
        const mark = seen.get(line.phase) ?? { first: at(), last: '' };
        mark.last = at();
        seen.set(line.phase, mark);
        if (line.phase === 'write') writes.push(`${line.done}@${at()}`);
      } else if (line.result !== undefined) body = JSON.stringify(line.result);
      else if (line.error) {
        status = line.error.statusCode;
        body = JSON.stringify(line.error);
      }
    };
    const reader = res.body.getReader();
    const text = new TextDecoder();
    let rest = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += text.decode(value, { stream: true });
      for (let nl = rest.indexOf('\n'); nl >= 0; nl = rest.indexOf('\n')) {
        take(rest.slice(0, nl));
        rest = rest.slice(nl + 1);
      }
    }
    take(rest);
    const phases = [...seen].map(([p, m]) => `${p} ${m.first}-${m.last} s`).join(', ') + (writes.length ? ` [rows@s ${writes.join(' ')}]` : '') + `, end ${at()} s`;
    return { seconds: (performance.now() - t0) / 1000, status, body, phases };
  } catch (e) {
    if ((e as Error).name !== 'TimeoutError') throw e;
    return { seconds: (performance.now() - t0) / 1000, status: 0, body: `no answer within ${TIMEOUT_S} s`, phases: '' };
  }
}

const summary = (status: number, body: string): string => {
  try {
    const j = JSON.parse(body) as { ok?: boolean; total?: number; imported?: number; errors?: { row: number; field: string; message: string }[]; message?: string };
    if (status !== 200) return `${status}: ${j.message ?? body.slice(0, 200)}`;
    const e = j.errors?.[0];
    return `ok=${j.ok} total=${j.total} imported=${j.imported}${e ? ` errors=${j.errors?.length} first: row ${e.row} ${e.field}: ${e.message}` : ''}`;
  } catch {
    return `${status}: ${body.slice(0, 200)}`;
  }
};

let school: School;
const outcomes: Outcome[] = [];
for (const backend of backends) {
  const dataDir = backend === 'pglite' ? mkdtempSync(join(tmpdir(), 'bench-import-pglite-')) : undefined;
  if (backend === 'postgres') await recreateDatabase(args.db!);
  // A fresh database: the first start migrates, seeds and writes the demo (timed: the issue's start figure).
  const server = await startServer({ ...(backend === 'postgres' ? { databaseUrl: urlOf(args.db!) } : { dataDir }), ...(args.root ? { root: args.root } : {}) });
  const pid = serverPid(new URL(server.base).port);
  console.log(`\n${backend}: first start with the demo, to healthy: ${(server.startMs / 1000).toFixed(1)} s`);
  try {
    // The school, its running year and its sections as the office sees them (the API, so PGlite works too).
    const home = await signIn(server.base, 'ADMIN', BENCH_ADMIN_PASSWORD, 1, 0);
    const years = (await (await fetch(`${server.base}/api/academic/?size=50`, { headers: headersOf(home, 'academic') })).json()) as { rows: { acdm_cd: number; acdm_sts: boolean }[] };
    const acdmCd = years.rows.find((y) => y.acdm_sts)?.acdm_cd;
    const secs = (await (await fetch(`${server.base}/api/section/?size=200`, { headers: headersOf(home, 'section') })).json()) as { rows: { sec_nm: string; cls_nm: string }[] };
    if (!acdmCd || !secs.rows?.length) throw new Error(`no running year or no sections: ${JSON.stringify({ years, secs }).slice(0, 300)}`);
    school = { instCd: 1, acdmCd, sections: secs.rows.map((r) => ({ cls: r.cls_nm, sec: r.sec_nm })) };
    const s = await signIn(server.base, 'ADMIN', BENCH_ADMIN_PASSWORD, school.instCd, school.acdmCd);
    const headers = headersOf(s, 'profile', 'POST', 'student');
    for (const n of sizes) {
      const prefix = `IMP${n}`;
      const file = await workbook(n, prefix, school);
      const fileKb = Math.round(file.length / 1024);
      for (const dryRun of [true, false]) {
        const load = await loadAverage();
        const beforeMb = rssMb(pid);
        resetPeak(pid);
        const r = await upload(server.base, headers, `students-${n}.xlsx`, file, dryRun);
        const peak = peakMb(pid);
        const answer = summary(r.status, r.body);
        outcomes.push({ backend, rows: n, fileKb, step: dryRun ? 'check (dryRun)' : 'import', seconds: r.seconds, peakMb: peak, beforeMb, answer: `${answer} (load ${load})` });
        console.log(`  ${n} rows (${fileKb} KB), ${dryRun ? 'check' : 'import'}: ${r.seconds.toFixed(1)} s, server memory ${beforeMb} MB before, peak ${peak} MB  ${answer}`);
        if (r.phases) console.log(`    progress lines arrived: ${r.phases}`);
        if (r.status !== 200) break;
      }
      // The server is still working on the file it did not answer: later sizes would measure the queue.
      if (outcomes.at(-1)?.answer.startsWith('0:')) break;
      if (backend === 'postgres') {
        const got = await withClient(urlOf(args.db!), async (c) => (await c.query<{ n: string }>(`SELECT count(*) AS n FROM student WHERE stud_adm_cd LIKE $1`, [`${prefix}/%`])).rows[0].n);
        console.log(`  students of the file in the database: ${got} (all or nothing: 0 or ${n})`);
      }
    }
  } finally {
    await server.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}
console.log(
  `\n${table(
    ['backend', 'rows', 'file KB', 'step', 'seconds', 'RSS before MB', 'peak RSS MB', 'answer'],
    outcomes.map((o) => [o.backend, o.rows, o.fileKb, o.step, o.seconds.toFixed(1), o.beforeMb, o.peakMb, o.answer]),
  )}`,
);
console.log('\n| what | target | measured |\n|---|---|---|');
for (const n of sizes) {
  const cells = backends.map((b) => {
    const imp = outcomes.find((o) => o.backend === b && o.rows === n && o.step === 'import');
    const chk = outcomes.find((o) => o.backend === b && o.rows === n && o.step.startsWith('check'));
    if (imp && imp.answer.startsWith('ok=true')) return `${imp.seconds.toFixed(1)} s (${b}; check ${chk?.seconds.toFixed(1)} s)`;
    const refused = imp ?? chk;
    return `${b}: ${refused?.answer.replace(/ \(load .*\)$/, '') ?? 'not run'} after ${refused?.seconds.toFixed(1)} s`;
  });
  console.log(`| import ${n.toLocaleString('en')} students, one .xlsx | <= 10 s, one file, all or nothing | ${cells.join('; ')} |`);
}
