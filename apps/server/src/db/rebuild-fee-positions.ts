import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configFromEnv } from '../config';
import { openDatabase, rows, sql, type DbOrTx } from './client';
import { feePositionRebuild } from './views/fee-position.ddl';

/**
 * The stored fee positions (fee_position, fee_position_term) against a full recomputation from the fee
 * lines (fee_position_calc_v, fee_position_term_calc_v): the students whose stored rows differ. The triggers
 * keep this empty; a row can only go wrong by hand (triggers disabled, a restore of one table).
 *
 *   npx tsx apps/server/src/db/rebuild-fee-positions.ts           # check and recompute all (DATABASE_URL / DATA_DIR)
 *   npx tsx apps/server/src/db/rebuild-fee-positions.ts --check   # only report the differences
 */
export async function feePositionDrift(db: DbOrTx): Promise<number[]> {
  const cols = sql.raw('stud_cd, inst_cd, acdm_cd, needtopay, discount, fee_coll_amt, bal_amt, first_due_dt, last_bill_no, last_bill_dt');
  const termCols = sql.raw('stud_cd, due_dt, due_amt');
  const positions = await rows<{ stud_cd: number }>(
    db,
    sql`(SELECT ${cols} FROM fee_position EXCEPT ALL SELECT ${cols} FROM fee_position_calc_v)
        UNION ALL (SELECT ${cols} FROM fee_position_calc_v EXCEPT ALL SELECT ${cols} FROM fee_position)`,
  );
  const terms = await rows<{ stud_cd: number }>(
    db,
    sql`(SELECT ${termCols} FROM fee_position_term EXCEPT ALL SELECT ${termCols} FROM fee_position_term_calc_v)
        UNION ALL (SELECT ${termCols} FROM fee_position_term_calc_v EXCEPT ALL SELECT ${termCols} FROM fee_position_term)`,
  );
  const found = [...new Set([...positions, ...terms].map((r) => Number(r.stud_cd)))].sort((a, b) => a - b);
  return found;
}

/** Recomputes every stored fee position in one transaction (writers of fees wait meanwhile). */
export async function rebuildFeePositions(db: DbOrTx): Promise<{ students: number; terms: number }> {
  return db.transaction(async (tx) => {
    for (const statement of feePositionRebuild) await tx.execute(sql.raw(statement));
    const [n] = await rows<{ students: number; terms: number }>(
      tx,
      sql`SELECT (SELECT count(*) FROM fee_position)::int AS students, (SELECT count(*) FROM fee_position_term)::int AS terms`,
    );
    return n;
  });
}

async function main(): Promise<void> {
  const cfg = configFromEnv();
  const database = await openDatabase({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir });
  try {
    const t0 = performance.now();
    const wrong = await feePositionDrift(database.db);
    console.log(`${wrong.length} student(s) with a stored fee position that differs from their fee lines${wrong.length ? `: ${wrong.slice(0, 20).join(', ')}${wrong.length > 20 ? ', ...' : ''}` : ''}`);
    if (process.argv.includes('--check')) {
      process.exitCode = wrong.length ? 1 : 0;
      return;
    }
    const n = await rebuildFeePositions(database.db);
    console.log(`Recomputed ${n.students} fee positions (${n.terms} due dates owing) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    await database.close();
  }
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
