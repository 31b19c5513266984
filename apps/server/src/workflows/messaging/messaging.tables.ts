import { getTableColumns } from 'drizzle-orm';
import { index, integer, pgTable, timestamp, uniqueIndex, varchar, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { entityTables } from '../../db/tables';

const keyOf = (entityName: string): AnyPgColumn => {
  const t = entityTables().find((x) => x.entity.name === entityName);
  if (!t) throw new Error(`no table for ${entityName}`);
  return getTableColumns(t.table)[t.entity.key] as AnyPgColumn;
};

/**
 * Direct messages between staff (header's message dialog). Kept so a user can read what reached them while
 * their page was closed; the sender and addressee are employee codes, the institute the one both shared.
 */
export const directMessage = pgTable(
  'direct_message',
  {
    dm_cd: integer('dm_cd').primaryKey().generatedByDefaultAsIdentity(),
    inst_cd: integer('inst_cd').notNull(),
    dm_from_usr_cd: integer('dm_from_usr_cd').notNull(),
    dm_to_usr_cd: integer('dm_to_usr_cd').notNull(),
    dm_txt: varchar('dm_txt', { length: 1000 }).notNull(),
    dm_sent_at: timestamp('dm_sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('direct_message_to_idx').on(t.dm_to_usr_cd, t.dm_sent_at), index('direct_message_from_idx').on(t.dm_from_usr_cd, t.dm_sent_at)],
);

/**
 * One recipient of a mobile notification on one channel: the parents of a student, reached at the address
 * the student record held when the message was sent. A notification's count and status are computed from
 * these rows (mob-notification.service.ts).
 */
export const mobNotificationDelivery = pgTable(
  'mob_notification_delivery',
  {
    mnd_cd: integer('mnd_cd').primaryKey().generatedByDefaultAsIdentity(),
    mob_ntf_dtl_cd: integer('mob_ntf_dtl_cd')
      .notNull()
      .references(() => keyOf('mob_notification'), { onDelete: 'cascade' }),
    inst_cd: integer('inst_cd').notNull(),
    stud_cd: integer('stud_cd').notNull(),
    mnd_channel: varchar('mnd_channel', { length: 20 }).notNull(),
    mnd_address: varchar('mnd_address', { length: 150 }),
    /** Queued, Sent or Failed. */
    mnd_sts: varchar('mnd_sts', { length: 10 }).notNull().default('Queued'),
    mnd_reason: varchar('mnd_reason', { length: 300 }),
    mnd_attempts: integer('mnd_attempts').notNull().default(0),
    mnd_last_tried: timestamp('mnd_last_tried', { withTimezone: true }),
  },
  (t) => [uniqueIndex('mob_notification_delivery_uq').on(t.mob_ntf_dtl_cd, t.stud_cd, t.mnd_channel)],
);

export const messagingTables = { directMessage, mobNotificationDelivery };
