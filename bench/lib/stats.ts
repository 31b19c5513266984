/** Percentiles and the figures every bench prints. */

export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

export interface Summary {
  n: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function summarize(ms: readonly number[], seconds: number): Summary {
  const s = [...ms].sort((a, b) => a - b);
  return { n: s.length, perSecond: s.length / seconds, p50: percentile(s, 0.5), p95: percentile(s, 0.95), p99: percentile(s, 0.99), max: s.at(-1) ?? Number.NaN };
}

export const fmt = (v: number, digits = 1): string => (Number.isFinite(v) ? v.toFixed(digits) : '-');

/** A fixed-width text table, the first column left-aligned. */
export function table(head: string[], body: (string | number)[][]): string {
  const cells = [head, ...body.map((r) => r.map(String))];
  const w = head.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i]))).join('  ');
  return [line(head), w.map((x) => '-'.repeat(x)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

/** The 1-minute load average, to print next to a figure: other work on the machine skews it. */
export async function loadAverage(): Promise<string> {
  const { loadavg } = await import('node:os');
  return loadavg().map((x) => x.toFixed(2)).join(' ');
}
