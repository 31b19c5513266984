// Loaded into the API server process with NODE_OPTIONS=--import when BENCH_SQL_TRACE names a file: appends
// one JSON line per SQL statement the server sends through node-postgres (text, values, start and wall
// time in ms as the driver saw it), so the bench can compare a request's HTTP time with its own SQL.
// Plain JavaScript so it loads whether the server runs through tsx or from compiled files.
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const out = process.env.BENCH_SQL_TRACE;
if (out) {
  // Lines are kept in memory and written every 100 ms, so the request being timed does not wait on the disk.
  let pending = [];
  const flush = () => {
    if (pending.length === 0) return;
    try {
      appendFileSync(out, pending.join(''));
    } catch {
      /* tracing must never break the server */
    }
    pending = [];
  };
  setInterval(flush, 100).unref();
  process.on('exit', flush);
  const require = createRequire(join(process.cwd(), 'apps/server/package.json'));
  const pg = require('pg');
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function traced(config, values, callback) {
    const text = typeof config === 'string' ? config : config?.text;
    const vals = Array.isArray(values) ? values : config?.values;
    const t0 = performance.now();
    const at = Date.now();
    const done = (ok) => {
      if (!text) return;
      // generic: sent on a connection that keeps generic plans (the server's genericPlanDb pool).
      const generic = /plan_cache_mode=force_generic_plan/.test(this.connectionParameters?.options ?? '');
      pending.push(`${JSON.stringify({ at, ms: performance.now() - t0, ok, name: config?.name ?? null, generic, text, values: vals ?? [] })}\n`);
    };
    // pg.Pool.query passes a callback (values may be the callback itself); a client's own query gets a promise.
    if (typeof values === 'function') {
      const cb = values;
      return original.call(this, config, (err, res) => {
        done(!err);
        cb(err, res);
      });
    }
    if (typeof callback === 'function') {
      return original.call(this, config, values, (err, res) => {
        done(!err);
        callback(err, res);
      });
    }
    const result = original.call(this, config, values, callback);
    if (result && typeof result.then === 'function') result.then(() => done(true), () => done(false));
    return result;
  };
}
