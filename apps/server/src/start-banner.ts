import { rows, sql, type DbOrTx } from './db/client';
import type { DemoResult } from './db/demo/demo-data';

export interface YearStudents {
  inst_nm: string;
  /** '2026-27' */
  year: string;
  /** The institute's active (running) year. */
  current: boolean;
  students: number;
}

/**
 * Students per institute and academic year. A child promoted into this year also has last year's row (the
 * school keeps its old marks and bills), so one count over the table adds both years together.
 */
export async function studentsPerYear(db: DbOrTx): Promise<YearStudents[]> {
  return rows<YearStudents>(
    db,
    sql`SELECT i.inst_nm,
               a.acdm_strt_yr || '-' || lpad(((a.acdm_strt_yr + 1) % 100)::text, 2, '0') AS year,
               a.acdm_sts AS current,
               count(s.stud_cd)::int AS students
        FROM academic a
        JOIN institute i ON i.inst_cd = a.inst_cd
        LEFT JOIN student s ON s.acdm_cd = a.acdm_cd
        GROUP BY i.inst_cd, i.inst_nm, a.acdm_cd, a.acdm_strt_yr, a.acdm_sts
        ORDER BY i.inst_cd, a.acdm_strt_yr DESC`,
  );
}

/** Where the server can be opened: a server on every interface says so, one on loopback says how to share it. */
export function listeningLines(host: string, port: number): string[] {
  const everywhere = host === '0.0.0.0' || host === '::';
  const loopback = host === '127.0.0.1' || host === 'localhost' || host === '::1';
  const local = `http://localhost:${port}`;
  if (everywhere) return [`  Campus is running on ${local} and on port ${port} of every network address of this computer (HOST=${host}).  API docs: /api/docs`];
  if (loopback) return [`  Campus is running on ${local}, for this computer only (set HOST=0.0.0.0 to serve the office network).  API docs: /api/docs`];
  return [`  Campus is running on http://${host.includes(':') ? `[${host}]` : host}:${port}  (API docs: /api/docs)`];
}

/**
 * What the first start prints about the demo content: this year's students per institute (the figures the
 * README gives) apart from last year's rows, then the restricted accounts.
 */
export function demoLines(demo: DemoResult, perYear: readonly YearStudents[], demoPassword: string | undefined): string[] {
  const lines = ['', `  Demo content (${(demo.ms / 1000).toFixed(1)} s), this academic year:`];
  for (const y of perYear.filter((r) => r.current)) lines.push(`    ${y.inst_nm} ${y.year}: ${y.students} students`);
  const earlier = perYear.filter((r) => !r.current && r.students > 0);
  if (earlier.length > 0) {
    lines.push(`  Earlier years' student rows (this year's children's last year, and those who left):`);
    for (const y of earlier) lines.push(`    ${y.inst_nm} ${y.year}: ${y.students}`);
  }
  lines.push(`  And ${demo.counts.employee ?? 0} staff, classes, fees, library, buses, exams, holidays.`);
  lines.push(`  Restricted demo accounts (${demoPassword ? 'password: the DEMO_PASSWORD you set' : 'passwords shown only now; set DEMO_PASSWORD to choose one'}):`);
  for (const a of demo.accounts) {
    lines.push(`    login id: ${a.login.padEnd(10)}   ${demoPassword ? '' : `password: ${a.password}   `}${a.fullName}, ${a.access}`);
  }
  return lines;
}
