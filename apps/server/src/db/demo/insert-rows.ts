import { entity } from '@campus/entities/registry';
import { rows, sql, type DbOrTx } from '../client';

export type Value = string | number | boolean | null;
export type Row = Record<string, Value>;

/** PostgreSQL takes at most 65,535 parameters per statement; stay well under it. */
const MAX_PARAMS = 30_000;

function columnsOf(entityName: string, sample: Row): { table: string; key: string; cols: string[] } {
  const e = entity(entityName);
  const system = e.scope === 'academic-year' ? ['inst_cd', 'acdm_cd'] : e.scope === 'institute' ? ['inst_cd'] : [];
  const cols = Object.keys(sample);
  for (const c of cols) {
    // Identifiers come from the declaration only: a misspelt column fails here, not as broken SQL.
    const f = e.fields[c];
    const ok = (f !== undefined && f.kind !== 'code') || system.includes(c) || c === 'crt_by';
    if (!ok) throw new Error(`demo: ${entityName} has no writable column ${c}`);
  }
  return { table: e.table, key: e.key, cols };
}

/**
 * Multi-row INSERTs of one entity, a batch per statement, every value a bound parameter. Returns the new
 * key with the requested columns, so callers map codes back by a natural key rather than trusting the order
 * of RETURNING.
 */
export async function insertRows(tx: DbOrTx, entityName: string, list: Row[], returning: string[] = []): Promise<Row[]> {
  if (list.length === 0) return [];
  const { table, key, cols } = columnsOf(entityName, list[0]);
  for (const r of list) {
    if (Object.keys(r).length !== cols.length || cols.some((c) => !(c in r))) throw new Error(`demo: ${entityName} rows differ in their columns`);
  }
  const back = [key, ...returning.filter((c) => c !== key)];
  for (const c of returning) if (!entity(entityName).fields[c] && c !== 'inst_cd' && c !== 'acdm_cd') throw new Error(`demo: ${entityName} has no column ${c}`);
  const per = Math.max(1, Math.floor(MAX_PARAMS / cols.length));
  const out: Row[] = [];
  for (let i = 0; i < list.length; i += per) {
    const batch = list.slice(i, i + per);
    const values = batch.map((r) => sql`(${sql.join(cols.map((c) => sql`${r[c]}`), sql`, `)})`);
    const got = await rows<Row>(
      tx,
      sql`INSERT INTO ${sql.identifier(table)} (${sql.join(cols.map((c) => sql.identifier(c)), sql`, `)})
          VALUES ${sql.join(values, sql`, `)}
          RETURNING ${sql.join(back.map((c) => sql.identifier(c)), sql`, `)}`,
    );
    out.push(...got);
  }
  return out;
}

/** Code by a natural key of the returned rows ('VI' -> 7). */
export function codeBy(list: Row[], key: string, name: (r: Row) => string): Map<string, number> {
  return new Map(list.map((r) => [name(r), Number(r[key])]));
}
