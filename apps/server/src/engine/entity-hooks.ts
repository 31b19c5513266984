import type { RequestContext } from '../access/request-context';
import type { Tx } from '../db/client';

export type Row = Record<string, unknown>;

/**
 * Invariants that must hold on every write of one entity live in its hooks (src/hooks), registered at
 * start-up, so the engine stays free of domain imports. All hooks run inside the write's transaction.
 */
export interface EntityHooks {
  /** May amend the values about to be written, or throw an HttpError to refuse the write. */
  beforeCreate?(tx: Tx, ctx: RequestContext, values: Row): Promise<void>;
  beforeUpdate?(tx: Tx, ctx: RequestContext, before: Row, changes: Row): Promise<void>;
  afterCreate?(tx: Tx, ctx: RequestContext, row: Row): Promise<void>;
  afterUpdate?(tx: Tx, ctx: RequestContext, before: Row, after: Row): Promise<void>;
  beforeDelete?(tx: Tx, ctx: RequestContext, rows: Row[]): Promise<void>;
}

const registry = new Map<string, EntityHooks[]>();

export function registerHooks(entityName: string, hooks: EntityHooks): void {
  registry.set(entityName, [...(registry.get(entityName) ?? []), hooks]);
}

export const hooksOf = (entityName: string): EntityHooks[] => registry.get(entityName) ?? [];
