import type { JobDefinition } from '../../jobs/job-definition';

export const messagingJobs: readonly JobDefinition[] = [];
