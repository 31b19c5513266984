/**
 * The machine's floor for the list/search mix: the same load driver (32 connections, keep-alive, gzip asked)
 * against a bare Node HTTP server in its own process that answers every request with a fixed gzipped JSON
 * body of a student page's size, with no framework and no database. What a server can reach on this box before
 * it does any work of its own (issue 10's 1,500 req/s needs the whole request, SQL included, within that).
 *   npx tsx bench/scale/http-floor.ts [--seconds 15] [--connections 32] [--bytes 3800]
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { runLoad } from '../lib/load-driver';
import { fmt, loadAverage } from '../lib/stats';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '15' },
    connections: { type: 'string', default: '32' },
    bytes: { type: 'string', default: '3800' },
  },
});
const server = `
const http = require('node:http');
const zlib = require('node:zlib');
const rows = Array.from({ length: 50 }, (_, i) => ({ stud_cd: 1000 + i, stud_fs_nm: 'Student ' + i, stud_adm_cd: 'ADM' + i, cls_nm: 'VI', sec_nm: 'A', row_ver: 1 }));
// Padded with distinct rows until the gzipped answer has a student page's size.
let n = 50;
let gz = zlib.gzipSync(JSON.stringify({ rows, total: 10123, total_exact: true }));
while (gz.length < ${Number(args.bytes)}) {
  rows.push({ stud_cd: 1000 + n, stud_fs_nm: 'Student ' + n * 7919, stud_adm_cd: 'ADM' + n * 104729, cls_nm: 'VI', sec_nm: 'A', row_ver: 1 });
  n++;
  gz = zlib.gzipSync(JSON.stringify({ rows, total: 10123, total_exact: true }));
}
http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': gz.length });
  res.end(gz);
}).listen(0, '127.0.0.1', function () { console.log(this.address().port); });
`;
const child = spawn(process.execPath, ['-e', server], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise<number>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
const load = await loadAverage();
try {
  const r = await runLoad(`http://127.0.0.1:${port}`, {
    connections: Number(args.connections),
    seconds: Number(args.seconds),
    next: () => ({ kind: 'fixed answer', path: '/api/student/?page=1&size=50', headers: { 'accept-encoding': 'gzip, br' } }),
  });
  console.log(`bare Node HTTP server, fixed ${args.bytes}-byte gzip answer, ${args.connections} connections, ${args.seconds} s: ${fmt(r.total.perSecond)} req/s, p50 ${fmt(r.total.p50)} ms, p95 ${fmt(r.total.p95)} ms, errors ${r.total.errors} (load before ${load}, after ${await loadAverage()})`);
} finally {
  child.kill();
}
