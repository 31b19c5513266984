import { entity } from '@campus/entities/registry';
import { rows, sql, type DbOrTx } from '../client';
import { insertJsonRows } from '../json-insert';

export type Value = string | number | boolean | null;
export type Row = Record<string, Value>;

/**
 * Rows per statement. Every statement into a table with a fee-position trigger recomputes the positions of
 * the students it touches, so fewer, larger statements cost less; this only bounds one JSON document.
 */
const MAX_ROWS = 20_000;

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

/** Rows in one write from which the table's plain indexes are built afterwards rather than row by row. */
export const REBUILD_INDEXES_FROM = 2_000;

/**
 * Runs a large insert with the table's plain indexes (not unique, not behind a constraint) dropped, and
 * makes them again from their own definitions straight after, in the same transaction: building an index
 * over thousands of rows at once costs a fraction of adding each row to it (a trigram index and seven
 * b-trees more than doubled the register's insert). Nothing reads the table in between, and unique indexes
 * stay, so the rows and the schema are exactly as before.
 */
async function withIndexesRebuilt<T>(tx: DbOrTx, table: string, write: () => Promise<T>): Promise<T> {
  const plain = await rows<{ name: string; def: string }>(
    tx,
    sql`SELECT ic.relname AS name, pg_get_indexdef(i.indexrelid) AS def
        FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
        WHERE i.indrelid = ${table}::regclass AND NOT i.indisunique AND NOT i.indisprimary AND NOT i.indisexclusion
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
        ORDER BY ic.relname`,
  );
  for (const ix of plain) await tx.execute(sql`DROP INDEX ${sql.identifier(ix.name)}`);
  const out = await write();
  // Definitions read from the catalog a moment ago, not from any input.
  for (const ix of plain) await tx.execute(sql.raw(ix.def));
  return out;
}

/**
 * Bulk INSERTs of one entity, a batch per statement, the values in one bound JSON parameter. Returns the new
 * key with the requested columns, so callers map codes back by a natural key rather than trusting the order
 * of RETURNING. With rebuildIndexes, a list of REBUILD_INDEXES_FROM rows or more is written with the
 * table's plain indexes built afterwards (withIndexesRebuilt).
 */
export async function insertRows(tx: DbOrTx, entityName: string, list: Row[], returning: string[] = [], opts: { rebuildIndexes?: boolean } = {}): Promise<Row[]> {
  if (list.length === 0) return [];
  const { table, key, cols } = columnsOf(entityName, list[0]);
  for (const r of list) {
    if (Object.keys(r).length !== cols.length || cols.some((c) => !(c in r))) throw new Error(`demo: ${entityName} rows differ in their columns`);
  }
  const back = [key, ...returning.filter((c) => c !== key)];
  for (const c of returning) if (!entity(entityName).fields[c] && c !== 'inst_cd' && c !== 'acdm_cd') throw new Error(`demo: ${entityName} has no column ${c}`);
  // A json field's value is JSON text (as a bound parameter takes it): inside the JSON document it must be the
  // value itself, or the column would hold a string.
  const jsonCols = new Set(cols.filter((c) => entity(entityName).fields[c]?.kind === 'json'));
  const value = (c: string, v: Value): unknown => (jsonCols.has(c) && typeof v === 'string' ? JSON.parse(v) : v);
  const write = async (): Promise<Row[]> => {
    const out: Row[] = [];
    for (let i = 0; i < list.length; i += MAX_ROWS) {
      const batch = list.slice(i, i + MAX_ROWS).map((r) => Object.fromEntries(cols.map((c) => [c, value(c, r[c])])));
      const got = await insertJsonRows<Row>(tx, table, cols, batch, back);
      out.push(...got);
    }
    return out;
  };
  return opts.rebuildIndexes && list.length >= REBUILD_INDEXES_FROM ? withIndexesRebuilt(tx, table, write) : write();
}

/** Code by a natural key of the returned rows ('VI' -> 7). */
export function codeBy(list: Row[], key: string, name: (r: Row) => string): Map<string, number> {
  return new Map(list.map((r) => [name(r), Number(r[key])]));
}
