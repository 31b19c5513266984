import { rows, sql, type DbOrTx } from './client';

/**
 * One INSERT ... SELECT over rows sent as a single bound JSON parameter and read by the table's own row type
 * (json_populate_recordset): the database parses the batch itself, where a multi-row VALUES would bind one
 * parameter per cell (tens of thousands for a school's roll) for the ORM to build and PostgreSQL to parse.
 * Columns left out keep their defaults. WITH ORDINALITY keeps the rows' order, so the returned columns come
 * back in the order given. Table and column names must come from the declarations, never from a request.
 */
export async function insertJsonRows<T extends Record<string, unknown>>(
  tx: DbOrTx,
  table: string,
  cols: readonly string[],
  batch: readonly Record<string, unknown>[],
  returning: readonly string[],
): Promise<T[]> {
  const colList = sql.join(cols.map((c) => sql.identifier(c)), sql`, `);
  return rows<T>(
    tx,
    sql`INSERT INTO ${sql.identifier(table)} (${colList})
        SELECT ${sql.join(cols.map((c) => sql`x.${sql.identifier(c)}`), sql`, `)}
        FROM json_populate_recordset(NULL::${sql.identifier(table)}, ${JSON.stringify(batch)}::json) WITH ORDINALITY AS x
        ORDER BY x.ordinality
        RETURNING ${sql.join(returning.map((c) => sql.identifier(c)), sql`, `)}`,
  );
}
