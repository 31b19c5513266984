/**
 * A closed-loop HTTP load driver: `connections` clients, each sending its next request as soon as the last
 * answer is read, for `seconds`. Every request is tagged with its kind so one mixed run gives each kind's
 * rate and latency. Bodies are read in full (and counted), as a browser would.
 */
import { Pool } from 'undici';
import { summarize, type Summary } from './stats';

export interface RequestSpec {
  kind: string;
  method?: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Statuses counted as answered (200 by default). */
  ok?: (status: number) => boolean;
}

export interface KindResult extends Summary {
  kind: string;
  errors: number;
  firstError?: string;
  bytes: number;
}

export interface LoadResult {
  seconds: number;
  total: Summary & { errors: number };
  kinds: KindResult[];
}

export async function runLoad(base: string, o: { connections: number; seconds: number; next: (client: number, i: number) => RequestSpec; warmupSeconds?: number }): Promise<LoadResult> {
  const pool = new Pool(base, { connections: o.connections, pipelining: 1, keepAliveTimeout: 60_000 });
  const lat = new Map<string, number[]>();
  const err = new Map<string, { n: number; first?: string }>();
  const bytes = new Map<string, number>();
  let recording = false;
  const one = async (spec: RequestSpec): Promise<void> => {
    const t0 = performance.now();
    let status = 0;
    let size = 0;
    let text = '';
    try {
      const res = await pool.request({ origin: base, path: spec.path, method: spec.method ?? 'GET', headers: spec.headers, body: spec.body });
      status = res.statusCode;
      const buf = Buffer.from(await res.body.arrayBuffer());
      size = buf.length;
      if (!(spec.ok ?? ((s: number) => s === 200))(status)) text = buf.toString('utf8').slice(0, 300);
    } catch (e) {
      text = String(e);
    }
    const ms = performance.now() - t0;
    if (!recording) return;
    if (text) {
      const e = err.get(spec.kind) ?? { n: 0 };
      e.n++;
      e.first ??= `${status} ${text}`;
      err.set(spec.kind, e);
      return;
    }
    (lat.get(spec.kind) ?? lat.set(spec.kind, []).get(spec.kind)!).push(ms);
    bytes.set(spec.kind, (bytes.get(spec.kind) ?? 0) + size);
  };
  let stopAt = 0;
  const warm = (o.warmupSeconds ?? 2) * 1000;
  const clientLoop = async (c: number): Promise<void> => {
    let i = 0;
    while (performance.now() < stopAt) await one(o.next(c, i++));
  };
  const start = performance.now();
  stopAt = start + warm + o.seconds * 1000;
  const loops = Array.from({ length: o.connections }, (_, c) => clientLoop(c));
  await new Promise((r) => setTimeout(r, warm));
  recording = true;
  const t0 = performance.now();
  await Promise.all(loops);
  const seconds = (performance.now() - t0) / 1000;
  await pool.close();
  const all = [...lat.values()].flat();
  const kinds = [...new Set([...lat.keys(), ...err.keys()])].map((kind) => ({
    kind,
    ...summarize(lat.get(kind) ?? [], seconds),
    errors: err.get(kind)?.n ?? 0,
    firstError: err.get(kind)?.first,
    bytes: bytes.get(kind) ?? 0,
  }));
  return { seconds, total: { ...summarize(all, seconds), errors: [...err.values()].reduce((a, e) => a + e.n, 0) }, kinds };
}

/** One client, one request at a time: latency without queueing. */
export async function timeSequential(base: string, spec: () => RequestSpec, o: { count: number; maxSeconds: number }): Promise<KindResult> {
  const r = await runLoad(base, { connections: 1, seconds: o.maxSeconds, warmupSeconds: 0, next: () => spec() });
  const k = r.kinds[0];
  return k;
}
