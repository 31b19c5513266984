/**
 * vitest globalSetup of the browser tests: the migrated, seeded PGlite image every file's server copies
 * (apps/server/test/test-database-image.ts). The browser tests run on PGlite only: no PostgreSQL template.
 */
import { prepareTestDatabases } from '../apps/server/test/test-database-image';

export default function setup(): Promise<() => Promise<void>> {
  return prepareTestDatabases({ postgres: false });
}
