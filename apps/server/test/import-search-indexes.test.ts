import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, sql } from '../src/db/client';
import { REBUILD_TRIGRAMS_FROM } from '../src/engine/import.service';
import { backends, call, login, multipartFile, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;
type ImportBody = { ok: boolean; total: number; imported: number; errors: { row: number; field: string; message: string }[] };
type PlanNode = { 'Index Name'?: string; Plans?: PlanNode[] };

const walk = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(walk)];

/**
 * A file at least as large as the student table is written on PGlite with the table's trigram indexes dropped
 * and built again after the rows (import.service.ts, trigramsDroppedForLargeFile). Whatever happens to the
 * file, the table must end with exactly the indexes it had, and a clerk's search by name must still go
 * through the trigram index. On PostgreSQL the indexes are never dropped; the same assertions hold there.
 */
describe.each(backends)('student indexes around a large import on %s', (backend) => {
  let srv: TestServer;
  let admin: Session;
  const tag = `IX${Date.now().toString(36).toUpperCase()}`;
  const cls = `Index ${tag} IX`;
  const students = (s: Session): Session => ({ ...s, modulename: 'student', pagename: 'profile' });
  const upload = (name: string, buf: Buffer) => {
    const m = multipartFile(name, buf);
    return call(srv.app, students(admin), 'POST', '/api/student/import', m.payload, { headers: m.headers });
  };
  const indexes = () =>
    rows<{ indexname: string; indexdef: string }>(srv.database.db, sql`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'student' ORDER BY indexname`);
  const invalid = async () =>
    (await rows<{ n: number }>(srv.database.db, sql`SELECT count(*)::int AS n FROM pg_index WHERE indrelid = 'student'::regclass AND NOT (indisvalid AND indisready)`))[0].n;
  const storedCount = async () => (await rows<{ n: number }>(srv.database.db, sql`SELECT count(*)::int AS n FROM student`))[0].n;
  const file = async (n: number, prefix: string, lastRow?: string[]): Promise<Buffer> => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Students');
    ws.addRow(['Student Name', 'Admission No', 'Class', 'Section', 'Gender']);
    for (let i = 1; i <= n; i++) ws.addRow([`Pupil ${prefix}${i} Zelinskaya`, `${prefix}/${String(i).padStart(5, '0')}`, cls, i % 2 ? 'A' : 'B', i % 2 ? 'Female' : 'Male']);
    if (lastRow) ws.addRow(lastRow);
    return Buffer.from(await wb.xlsx.writeBuffer());
  };

  beforeAll(async () => {
    srv = await startTestServer(backend);
    admin = await login(srv.app);
    const made = await call(srv.app, { ...admin, modulename: 'class_section', pagename: 'class' }, 'POST', '/api/class/', { cls_nm: cls });
    expect(made.statusCode, made.body).toBe(201);
    for (const sec of ['A', 'B']) {
      const res = await call(srv.app, { ...admin, modulename: 'class_section', pagename: 'section' }, 'POST', '/api/section/', { sec_nm: sec, cls_cd: made.json<Row>().cls_cd });
      expect(res.statusCode, res.body).toBe(201);
    }
  }, 300_000);
  afterAll(async () => srv?.close());

  it('ends a large import with the same indexes, and a search by last name goes through the trigram index', async () => {
    const before = await indexes();
    expect(before.map((i) => i.indexname)).toEqual(expect.arrayContaining(['student_search_trgm', 'student_search_scope_trgm', 'student_finder_search_trgm']));
    const n = Math.max(REBUILD_TRIGRAMS_FROM, (await storedCount()) + 1);
    const res = await upload('large.xlsx', await file(n, `${tag}A`));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ImportBody>()).toMatchObject({ ok: true, imported: n });
    expect(await indexes()).toEqual(before);
    expect(await invalid()).toBe(0);

    // The clerk's search finds them, and on the list's own search expression the planner takes the trigram index.
    const found = await call(srv.app, students(admin), 'GET', `/api/student/?size=1&q=${encodeURIComponent(`${tag}A77 zelinsk`)}`);
    expect(found.json<{ total: number }>().total).toBeGreaterThan(0);
    // A few thousand rows are read faster whole: sequential reads are ruled out to see that the index serves.
    const plan = await srv.database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const [p] = await rows<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
        tx,
        sql`EXPLAIN (FORMAT JSON) SELECT stud_cd FROM student WHERE lower(coalesce(stud_fs_nm, '') || ' ' || coalesce(stud_ph, '')) LIKE ${`%${tag.toLowerCase()}a123 %`}`,
      );
      return p;
    });
    const used = walk(plan['QUERY PLAN'][0].Plan).flatMap((p) => (p['Index Name'] ? [p['Index Name']] : []));
    expect(used.some((u) => u === 'student_search_trgm' || u === 'student_search_scope_trgm'), JSON.stringify(used)).toBe(true);
  }, 300_000);

  it('ends a large import refused at its last row (an admission number already stored) with the same indexes and no row written', async () => {
    const before = await indexes();
    const stored = await storedCount();
    const n = Math.max(REBUILD_TRIGRAMS_FROM, stored + 1);
    // The clash is found only inside the write's transaction (against the stored rows), after the indexes went.
    const res = await upload('large-refused.xlsx', await file(n, `${tag}B`, ['Late Pupil', `${tag}A/00001`, cls, 'A', 'Male']));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ImportBody>()).toMatchObject({ ok: false, imported: 0, errors: [{ row: n + 2, field: 'stud_adm_cd', message: `Admission No '${tag}A/00001' already exists.` }] });
    expect(await storedCount()).toBe(stored);
    expect(await indexes()).toEqual(before);
    expect(await invalid()).toBe(0);
  }, 300_000);
});
