/** Reads the server's SQL trace (bench/lib/sql-trace.hook.mjs) and tells where the driver's time went. */
import { existsSync, readFileSync } from 'node:fs';
import { fmt, percentile, table } from './stats';

export interface TracedStatement {
  at: number;
  ms: number;
  ok: boolean;
  name: string | null;
  text: string;
  values: unknown[];
}

export function readTrace(file: string, since = 0): TracedStatement[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as TracedStatement)
    .filter((x) => x.at >= since);
}

/** The statements that took the most driver-side time in all, with their count and median. */
export function topStatements(stmts: readonly TracedStatement[], n = 12): string {
  const by = new Map<string, number[]>();
  for (const s of stmts) {
    const key = s.text.replace(/\s+/g, ' ').trim();
    (by.get(key) ?? by.set(key, []).get(key)!).push(s.ms);
  }
  const all = stmts.reduce((a, s) => a + s.ms, 0);
  const rowsOut = [...by]
    .map(([text, ms]) => ({ text, ms: [...ms].sort((a, b) => a - b), total: ms.reduce((a, x) => a + x, 0) }))
    .sort((a, b) => b.total - a.total)
    .slice(0, n)
    .map((r) => [r.text.slice(0, 100), r.ms.length, fmt(percentile(r.ms, 0.5), 2), fmt(percentile(r.ms, 0.95), 2), `${fmt((100 * r.total) / all, 0)}%`]);
  return table(['statement', 'count', 'p50 ms', 'p95 ms', 'share of SQL time'], rowsOut);
}
