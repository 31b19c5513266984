import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrationsDir } from './migrate';
import { schemaForMigrations } from './tables';

type Snapshot = Parameters<typeof generateMigration>[0];

/**
 * Diffs the declarations against the last snapshot and writes the next numbered SQL migration.
 * Migrations are committed and never edited after they land. `--check` fails when one is missing.
 */
export async function pendingStatements(): Promise<{ statements: string[]; next: Snapshot }> {
  const snapPath = join(migrationsDir, 'snapshot.json');
  const prev = existsSync(snapPath)
    ? (JSON.parse(readFileSync(snapPath, 'utf8')) as Snapshot)
    : generateDrizzleJson({});
  const next = generateDrizzleJson(schemaForMigrations(), prev.id);
  return { statements: await generateMigration(prev, next), next };
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const { statements, next } = await pendingStatements();
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
  console.log(`Wrote migrations/${file} (${statements.length} statements).`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
