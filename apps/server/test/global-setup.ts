/**
 * vitest globalSetup of the server tests: the run's migrated, seeded databases (test-database-image.ts), made
 * once for every file and backend.
 */
import { prepareTestDatabases } from './test-database-image';

export default function setup(): Promise<() => Promise<void>> {
  return prepareTestDatabases({ postgres: true });
}
