import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrationsDir } from './migrate';
import { schemaForMigrations } from './tables';
import { viewDefinitions, type ViewDefinition } from './view-sql';

type Snapshot = Parameters<typeof generateMigration>[0];
type ViewSnapshot = ViewDefinition[];

/**
 * Diffs the declarations against the last snapshot and writes the next numbered SQL migration.
 * Migrations are committed and never edited after they land. `--check` fails when one is missing.
 */
export async function pendingStatements(): Promise<{ statements: string[]; next: Snapshot; nextViews: ViewSnapshot }> {
  const snapPath = join(migrationsDir, 'snapshot.json');
  const prev = existsSync(snapPath)
    ? (JSON.parse(readFileSync(snapPath, 'utf8')) as Snapshot)
    : generateDrizzleJson({});
  const next = generateDrizzleJson(schemaForMigrations(), prev.id);
  const tables = await generateMigration(prev, next);
  const viewsPath = join(migrationsDir, 'views.snapshot.json');
  const prevViews = existsSync(viewsPath) ? (JSON.parse(readFileSync(viewsPath, 'utf8')) as ViewSnapshot) : [];
  const nextViews = viewDefinitions();
  const viewsChanged = JSON.stringify(prevViews) !== JSON.stringify(nextViews);
  // PostgreSQL refuses to alter a column a view uses, and a view must be rebuilt when a table it reads
  // changes shape: then the views are dropped before and created after the table changes. New tables and
  // indexes leave them alone, so a migration carries the views' text only when it has to.
  const rebuild = viewsChanged || tables.some((t) => touchesViewTable(t, prevViews));
  if (!rebuild) return { statements: tables, next, nextViews };
  const drops = [...prevViews].reverse().map((v) => `DROP VIEW IF EXISTS "${v.table}";`);
  const creates = nextViews.map((v) => `CREATE VIEW "${v.table}" AS\n${v.select};`);
  return { statements: [...drops, ...tables, ...creates], next, nextViews };
}

/** Whether a statement alters or drops a table that one of the views reads. */
export function touchesViewTable(statement: string, views: readonly ViewDefinition[]): boolean {
  const m = /^\s*(?:ALTER|DROP)\s+TABLE\s+(?:IF\s+EXISTS\s+)?"?([A-Za-z0-9_]+)"?/i.exec(statement);
  if (!m) return false;
  const name = new RegExp(`\\b${m[1]}\\b`);
  return views.some((v) => name.test(v.select));
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const { statements, next, nextViews } = await pendingStatements();
  if (statements.length === 0) {
    console.log('Schema matches the declarations: no migration needed.');
    return;
  }
  if (check) {
    console.error(`Declarations changed without a migration: run npm run db:generate.\n${statements.join('\n')}`);
    process.exit(1);
  }
  mkdirSync(migrationsDir, { recursive: true });
  const n = readdirSync(migrationsDir).filter((f) => f.endsWith('.sql')).length + 1;
  const name = process.argv.find((a) => a.startsWith('--name='))?.slice(7) ?? 'schema';
  const file = `${String(n).padStart(4, '0')}_${name}.sql`;
  writeFileSync(join(migrationsDir, file), statements.map((s) => `${s.trim()}${s.trim().endsWith(';') ? '' : ';'}`).join('\n--> statement-breakpoint\n') + '\n');
  writeFileSync(join(migrationsDir, 'snapshot.json'), JSON.stringify(next, null, 2) + '\n');
  writeFileSync(join(migrationsDir, 'views.snapshot.json'), JSON.stringify(nextViews, null, 2) + '\n');
  console.log(`Wrote migrations/${file} (${statements.length} statements).`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
