import type { JobDefinition } from '../../jobs/job-definition';

export const notificationRuleJobs: readonly JobDefinition[] = [];
