import type { JobDefinition } from '../../jobs/job-definition';

export const backupJobs: readonly JobDefinition[] = [];
