import { buildApp } from './app';
import { configFromEnv } from './config';
import { openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { restorePgliteImage, type ImageUse } from './db/pglite-image';
import { generateDemo, type DemoResult } from './db/demo/demo-data';
import { ADMIN_LOGIN, seedIfEmpty } from './db/seed';
import { attachRealtime } from './realtime';
import { syncBackupSchedules } from './workflows/backup/backup.schedule';
import { demoLines, listeningLines, studentsPerYear } from './start-banner';

// Milliseconds since the process began: node itself and loading every module (bench/startup.bench.ts reads
// the phases from the 'started' log line).
const phases: Record<string, number> = { load: performance.now() };
let mark = phases.load;
const phase = (name: string): void => {
  const now = performance.now();
  phases[name] = now - mark;
  mark = now;
};
const cfg = configFromEnv();
// A new PGlite folder starts as a copy of the migrated empty database made at build time, when it matches.
const image: ImageUse | undefined = cfg.databaseUrl ? undefined : await restorePgliteImage(cfg.dataDir);
phase('image');
const database = await openDatabase({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir, preparedStatements: cfg.preparedStatements });
phase('open');
const applied = await migrate(database.db);
phase('migrate');
const seeded = await seedIfEmpty(database.db, cfg.adminPassword);
phase('seed');
// Only on the start that created the database: a school that emptied its classes does not get the demo back.
const demo: DemoResult | undefined = seeded.created && cfg.demoData ? await generateDemo(database.db, { password: cfg.demoPassword }) : undefined;
phase('demo');
const app = await buildApp(cfg, database);
const realtime = await attachRealtime(app, database.db, cfg);
phase('app');

app.log.info({ db: database.kind, dataDir: database.kind === 'pglite' ? cfg.dataDir : undefined, image, migrations: applied }, 'database ready');
if (seeded.created) {
  const pwd = seeded.generatedPassword
    ? `password: ${seeded.generatedPassword}   (shown only now; set ADMIN_PASSWORD to choose one)`
    : 'password: the ADMIN_PASSWORD you set';
  const lines = [`  Campus demo data created.`, `  Sign in as login id: ${ADMIN_LOGIN.padEnd(10)}   ${pwd}`];
  if (demo?.created) lines.push(...demoLines(demo, await studentsPerYear(database.db), cfg.demoPassword));
  const wipe = database.kind === 'pglite' ? `delete ${cfg.dataDir}` : 'empty the database';
  lines.push('', `  To start again from a fresh demo: stop the server, ${wipe}, npm start.`);
  console.log(`\n${lines.join('\n')}\n`);
}

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down: finishing in-flight requests');
  // A keep-alive socket whose request finishes after close() began stays open and would hold the
  // process: close sockets as they go idle, and give up after 20 s rather than hang a deploy.
  const sweep = setInterval(() => app.server.closeIdleConnections(), 200);
  const deadline = setTimeout(() => {
    app.log.error('shutdown took too long: exiting');
    process.exit(1);
  }, 20_000);
  // Browsers reconnect to another process (or to this one after a restart) on their own.
  realtime.disconnectAll();
  // Workers stop taking jobs; a job still running after 15 s is failed and retried by the next process.
  await app.jobs.stop(15_000);
  await app.close();
  clearInterval(sweep);
  clearTimeout(deadline);
  await realtime.close().catch(() => undefined);
  await database.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: cfg.port, host: cfg.host });
phase('listen');
// Every process runs workers; each schedule sends once per tick whatever the number of processes (pg-boss).
await app.jobs.start();
await syncBackupSchedules(app.jobs, database.db, app.log);
phase('jobs');
// CPU time as well: on a busy machine the wall-clock phases stretch, the work done does not.
const cpu = process.cpuUsage();
app.log.info({ phasesMs: Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, Math.round(v)])), cpuMs: Math.round((cpu.user + cpu.system) / 1000) }, 'started');
console.log(listeningLines(cfg.host, cfg.port).join('\n'));
