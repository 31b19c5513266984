import type { DbOrTx } from '../client';
import type { Row } from './insert-rows';
import type { Rng } from './prng';

/**
 * What every part of the demo generator works with: the transaction, the institute and year it fills and that
 * year's calendar, the seeded dice (one stream per topic, so a part's output never shifts when another part
 * changes) and the bulk insert. Parts that need more (the classes, the teachers) extend it.
 */
export interface DemoScope {
  tx: DbOrTx;
  kind: 'school' | 'college';
  instCd: number;
  acdmCd: number;
  startYear: number;
  joinMonth: number;
  today: string;
  admin: number;
  rng: (topic: string) => Rng;
  add: (entityName: string, list: Row[], returning?: string[]) => Promise<Row[]>;
}
