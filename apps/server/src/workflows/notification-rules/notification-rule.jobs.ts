import type { JobDefinition } from '../../jobs/job-definition';
import { runDailyNotifications } from './notification-rule.service';

/** Which day to run for: absent is today (the server's local date); an admin's 'run now' may name another. */
export interface NotificationDailyData {
  day?: string;
}

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Every morning at 06:00 each active rule runs for its mapped users (runDailyNotifications). Storing is
 * idempotent per user, rule and day, so a retry or a second process adds nothing twice; so is the e-mail a
 * mapping may ask for (queued as 'mail-send', once per stored notification).
 */
export const notificationDailyJob: JobDefinition<NotificationDailyData> = {
  name: 'notification-daily',
  label: 'Daily notifications',
  cron: '0 6 * * *',
  retryLimit: 3,
  retryDelaySeconds: 60,
  retryBackoff: true,
  run(data, ctx) {
    const day = typeof data?.day === 'string' && DAY_RE.test(data.day) ? data.day : undefined;
    return runDailyNotifications(ctx.db, ctx.events, day, ctx.log, { cfg: ctx.cfg, queue: ctx.queue });
  },
};

export const notificationRuleJobs: readonly JobDefinition[] = [notificationDailyJob as JobDefinition];
