import { describe, expect, it } from 'vitest';
import { pendingStatements } from '../src/db/generate-migration';

describe('migrations', () => {
  it('the committed migrations match the declarations (run npm run db:generate after changing one)', async () => {
    const { statements } = await pendingStatements();
    expect(statements).toEqual([]);
  });
});
