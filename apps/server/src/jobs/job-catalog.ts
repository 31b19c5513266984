import { backupJobs } from '../workflows/backup/backup.jobs';
import { messagingJobs } from '../workflows/messaging/messaging.jobs';
import { notificationRuleJobs } from '../workflows/notification-rules/notification-rule.jobs';
import type { JobDefinition } from './job-definition';

/** Every kind of job the server runs; the queue registers a worker for each. */
export const jobCatalog: readonly JobDefinition[] = [...backupJobs, ...notificationRuleJobs, ...messagingJobs];
