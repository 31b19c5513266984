import type { PgColumn, PgTable, PgTableWithColumns } from 'drizzle-orm/pg-core';

/** A table whose columns are known only at run time (derived from a declaration). */
export type DynTable = PgTableWithColumns<{ name: string; schema: undefined; columns: Record<string, PgColumn>; dialect: 'pg' }>;

export const dyn = (t: PgTable): DynTable => t as DynTable;
