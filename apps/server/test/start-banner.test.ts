import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/config';
import { demoLines, listeningLines, studentsPerYear, type YearStudents } from '../src/start-banner';
import { startTestServer, type TestServer } from './test-server';

const readme = readFileSync(join(import.meta.dirname, '../../../README.md'), 'utf8');

describe('the first start banner tells what the README tells', () => {
  let srv: TestServer;
  let perYear: YearStudents[];

  beforeAll(async () => {
    srv = await startTestServer('pglite', {}, { demo: true });
    perYear = await studentsPerYear(srv.database.db);
  }, 240_000);
  afterAll(async () => srv?.close());

  it("counts this year's students apart from last year's rows, and those are the README's figures", () => {
    const current = perYear.filter((y) => y.current);
    expect(current.map((y) => y.inst_nm)).toEqual(['Sunrise Matriculation Higher Secondary School', 'Riverside College of Arts and Science']);
    for (const y of current) expect(readme, `README on ${y.inst_nm}`).toContain(`${y.students} students`);
    // The old banner's single figure added last year's rows in: the README never says it.
    const lastYear = perYear.filter((y) => !y.current).reduce((n, y) => n + y.students, 0);
    expect(lastYear).toBeGreaterThan(0);
    expect(current.reduce((n, y) => n + y.students, 0) + lastYear).toBe(srv.demo!.counts.student);
    expect(readme).not.toContain(`${srv.demo!.counts.student} students`);
  });

  it('prints each institute with its year and count, last year on a line of its own, and the accounts', () => {
    const lines = demoLines(srv.demo!, perYear, undefined);
    const school = perYear.find((y) => y.current && y.inst_nm.startsWith('Sunrise'))!;
    expect(lines).toContain(`    Sunrise Matriculation Higher Secondary School ${school.year}: ${school.students} students`);
    // Last year under a heading of its own, never added to this year's figure.
    const earlier = lines.findIndex((l) => l.includes("Earlier years' student rows"));
    expect(earlier).toBeGreaterThan(lines.indexOf(`    Sunrise Matriculation Higher Secondary School ${school.year}: ${school.students} students`));
    const lastYear = perYear.find((y) => !y.current && y.inst_nm.startsWith('Sunrise'))!;
    expect(lines[earlier + 1]).toBe(`    Sunrise Matriculation Higher Secondary School ${lastYear.year}: ${lastYear.students}`);
    for (const login of ['TEACHER', 'ACCOUNTANT', 'LIBRARIAN']) expect(lines.some((l) => l.includes(`login id: ${login}`) && l.includes('password: '))).toBe(true);
    // With DEMO_PASSWORD set, no password is printed.
    expect(demoLines(srv.demo!, perYear, 'chosen').some((l) => l.includes('password: ') && l.includes('login id'))).toBe(false);
  });
});

describe('where the server listens', () => {
  it('is this computer only unless HOST says otherwise, and the banner says how to share it', () => {
    expect(configFromEnv({}).host).toBe('127.0.0.1');
    expect(configFromEnv({ HOST: '' }).host).toBe('127.0.0.1');
    expect(configFromEnv({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(listeningLines('127.0.0.1', 3000).join('\n')).toContain('http://localhost:3000, for this computer only (set HOST=0.0.0.0');
    expect(listeningLines('0.0.0.0', 8080).join('\n')).toContain('on port 8080 of every network address');
    expect(listeningLines('192.168.1.20', 3000).join('\n')).toContain('http://192.168.1.20:3000');
  });
});
