import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IMPORT_ROWS, TOO_LARGE, TOO_MANY_ROWS } from '../src/engine/import.service';
import { backends, call, login, startTestServer, type Session, type TestServer, multipartFile } from './test-server';

type Row = Record<string, unknown>;
type ImportBody = { ok: boolean; total: number; imported: number; errors: { row: number; field: string; message: string }[] };
type Line = { phase?: 'read' | 'check' | 'write'; done?: number; total?: number; result?: ImportBody; error?: { statusCode: number; message: string } };

/**
 * The import page's progress bar (issue 10): asked with 'Accept: application/x-ndjson', the import answers
 * line by line while it reads, checks and writes, and ends with the same result the plain answer gives.
 */
describe.each(backends)('import progress on %s', (backend) => {
  let srv: TestServer;
  let admin: Session;
  let tag = '';
  let cls = '';
  const students = (): Session => ({ ...admin, modulename: 'student', pagename: 'profile' });
  const upload = (name: string, content: Buffer | string, dryRun: boolean, progress: boolean) => {
    const m = multipartFile(name, content);
    const headers = { ...m.headers, ...(progress ? { accept: 'application/x-ndjson', 'accept-encoding': 'br, gzip' } : {}) };
    return call(srv.app, students(), 'POST', `/api/student/import${dryRun ? '?dryRun=1' : ''}`, m.payload, { headers });
  };
  const linesOf = (body: string): Line[] =>
    body
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Line);
  const total = async (q: string): Promise<number> => (await call(srv.app, students(), 'GET', `/api/student/?size=1&q=${encodeURIComponent(q)}`)).json<{ total: number }>().total;
  const roll = (n: number, prefix: string): string => {
    const lines = ['Student Name,Admission No,Class,Section,Gender'];
    for (let i = 1; i <= n; i++) lines.push(`${prefix} ${tag} ${i},${tag}/${prefix}${i},${cls},A,${i % 2 ? 'Male' : 'Female'}`);
    return `${lines.join('\r\n')}\r\n`;
  };

  beforeAll(async () => {
    srv = await startTestServer(backend);
    admin = await login(srv.app);
    tag = `P${Date.now().toString(36).toUpperCase()}`;
    cls = `Progress ${tag}`;
    const made = await call(srv.app, { ...admin, modulename: 'class_section', pagename: 'class' }, 'POST', '/api/class/', { cls_nm: cls });
    expect(made.statusCode, made.body).toBe(201);
    const sec = await call(srv.app, { ...admin, modulename: 'class_section', pagename: 'section' }, 'POST', '/api/section/', { sec_nm: 'A', cls_cd: made.json<Row>().cls_cd });
    expect(sec.statusCode, sec.body).toBe(201);
  });
  afterAll(async () => srv?.close());

  it('streams progress that only goes forward, then the same result as the plain answer, uncompressed', async () => {
    const csv = roll(6_000, 'Flow');
    const plain = await upload('roll.csv', csv, true, false);
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.headers['content-type']).toMatch(/^application\/json/);

    const dry = await upload('roll.csv', csv, true, true);
    expect(dry.statusCode, dry.body.slice(0, 300)).toBe(200);
    expect(dry.headers['content-type']).toMatch(/^application\/x-ndjson/);
    // Compression would hold the lines back until its buffer fills.
    expect(dry.headers['content-encoding']).toBeUndefined();
    const lines = linesOf(dry.body);
    expect(lines.at(-1)).toEqual({ result: plain.json<ImportBody>() });
    const steps = lines.slice(0, -1);
    expect(steps.every((l) => l.phase !== undefined)).toBe(true);
    const order = ['read', 'check', 'write'];
    for (let i = 1; i < steps.length; i++) {
      const [a, b] = [steps[i - 1], steps[i]];
      const ia = order.indexOf(a.phase ?? '');
      const ib = order.indexOf(b.phase ?? '');
      expect(ib, JSON.stringify([a, b])).toBeGreaterThanOrEqual(ia);
      if (ia === ib) expect(b.done ?? 0, JSON.stringify([a, b])).toBeGreaterThanOrEqual(a.done ?? 0);
    }
    expect(steps.filter((l) => l.phase === 'read').at(-1)).toEqual({ phase: 'read', done: 6_000 });
    expect(steps.filter((l) => l.phase === 'check').at(-1)).toEqual({ phase: 'check', done: 6_000, total: 6_000 });
    // A check writes nothing, so it says nothing of saving.
    expect(steps.some((l) => l.phase === 'write')).toBe(false);
    expect(await total(`Flow ${tag}`)).toBe(0);

    const commit = await upload('roll.csv', csv, false, true);
    const done = linesOf(commit.body);
    expect(done.at(-1)).toEqual({ result: { ok: true, total: 6_000, imported: 6_000, errors: [] } });
    expect(done.filter((l) => l.phase === 'write')).toEqual([
      { phase: 'write', done: 5_000, total: 6_000 },
      { phase: 'write', done: 6_000, total: 6_000 },
    ]);
    expect(await total(`Flow ${tag}`)).toBe(6_000);
    // Three uploads of 6,000 rows, one written: minutes on a loaded two-core box.
  }, 300_000);

  it('refuses what it can see early with an ordinary 4xx, progress asked or not', async () => {
    const wrongTable = await upload('other.csv', 'Book Title,Author\nGodaan,Premchand\n', true, true);
    expect(wrongTable.statusCode, wrongTable.body).toBe(400);
    expect(wrongTable.json<{ message: string }>().message).toBe("No column matches a Student field. Use the template's header row.");
    const notXlsx = await upload('roll.xlsx', roll(3, 'Fake'), true, true);
    expect(notXlsx.statusCode).toBe(400);
    expect(notXlsx.json<{ message: string }>().message).toBe('The file is not a valid .xlsx workbook.');
  });

  it(`ends with the refusal of a file of more than ${MAX_IMPORT_ROWS.toLocaleString('en')} rows, read no further than the row past the limit`, async () => {
    const res = await upload('too-many.csv', roll(MAX_IMPORT_ROWS + 1, 'Over'), true, true);
    expect(res.statusCode).toBe(200);
    const lines = linesOf(res.body);
    expect(lines.at(-1)).toEqual({ error: { statusCode: 400, message: TOO_MANY_ROWS } });
    const reads = lines.filter((l) => l.phase === 'read');
    expect(reads.at(-1)?.done).toBe(MAX_IMPORT_ROWS);
    expect(lines.some((l) => l.phase === 'check')).toBe(false);
    expect(await total(`Over ${tag}`)).toBe(0);
  }, 120_000);

  it('refuses a file past the size limit with a sentence, not a generic error', async () => {
    // Long rows, fewer than the row limit: the byte limit is what stops this one.
    const pad = 'x'.repeat(700);
    const lines = ['Student Name,Admission No,Class,Section,Address'];
    for (let i = 0; i < 40_000; i++) lines.push(`Big ${tag} ${i},${tag}/BIG${i},${cls},A,${pad}`);
    const res = await upload('big.csv', lines.join('\n'), true, false);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(413);
    expect(res.json<{ message: string }>().message).toBe(TOO_LARGE);
    expect(await total(`Big ${tag}`)).toBe(0);
  }, 120_000);
});
