import type { AnyEntity } from '@campus/entities/define';
import { findEntity } from '@campus/entities/registry';
import type { EntityQueryDef } from '../../engine/entity-query';
import type { MailSendData } from '../messaging/mail.service';

/** How many of the stored preview's rows the e-mail lists (the bell keeps up to 20; a mail stays short). */
export const MAIL_ROWS = 10;
/** Columns per row in the e-mail when the rule names none (the entity's first shown fields). */
const DEFAULT_COLUMNS = 5;

/**
 * The page a notification opens, as the bell builds it (apps/web/src/app/notification-bell.tsx,
 * notificationPath): the entity's table page the user holds, filtered by the rule's conditions and window.
 */
export function notificationPagePath(page: { module: string; page: string }, def: EntityQueryDef, ruleName: string): string {
  const params = new URLSearchParams();
  const where = def.where ?? [];
  const dateFilter = def.dateFilter ?? null;
  if (where.length || dateFilter) params.set('rule', JSON.stringify({ where, dateFilter }));
  params.set('rule_nm', ruleName);
  return `/sms/${page.module}/${page.page}/table?${params.toString()}`;
}

/** The columns a row is written with: the group and its count, the rule's columns, or the entity's first shown fields. */
function mailColumns(e: AnyEntity | undefined, def: EntityQueryDef, sample: Record<string, unknown> | undefined): string[] {
  if (def.group?.length) return [...def.group, 'n'];
  if (def.columns?.length) return [...def.columns];
  if (e) {
    return Object.entries(e.fields)
      .filter(([name, f]) => name !== e.key && !f.gridHidden && f.kind !== 'password' && f.kind !== 'json' && f.kind !== 'file' && f.kind !== 'image')
      .slice(0, DEFAULT_COLUMNS)
      .map(([name]) => name);
  }
  return Object.keys(sample ?? {}).filter((k) => k !== 'row_ver').slice(0, DEFAULT_COLUMNS);
}

const plain = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (typeof v === 'object') return JSON.stringify(v);
  // One line per row: a multi-line text is folded.
  return String(v).replace(/\s+/g, ' ').trim();
};

/** One preview row as "Label: value; Label: value" (a link shows its name, not its code). */
function rowLine(e: AnyEntity | undefined, cols: readonly string[], row: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const c of cols) {
    const f = e && Object.hasOwn(e.fields, c) ? e.fields[c] : undefined;
    const label = c === 'n' && !f ? 'Count' : (f?.label ?? c);
    const value = f?.kind === 'link' ? (row[f.as] ?? row[c]) : row[c];
    const text = plain(value);
    if (text !== '') parts.push(`${label}: ${text}`);
  }
  return parts.join('; ');
}

export interface NotificationMailInput {
  to: string;
  ruleName: string;
  day: string;
  count: number;
  /** The stored preview (user_notification.usr_ntf_rows). */
  rows: readonly Record<string, unknown>[];
  def: EntityQueryDef;
  /** The page the recipient opens it on (their first allowed page of the entity). */
  page: { module: string; page: string };
}

/**
 * The 'mail-send' job's data for one stored notification: subject = the rule's name; a plain-text body with
 * the count, the first rows as the recipient's scope showed them, and the page path to open in Campus.
 * English, like the other server-written texts (the mail has no signed-in language).
 */
export function notificationMail(m: NotificationMailInput): MailSendData {
  const e = findEntity(m.def.entity);
  const shown = m.rows.slice(0, MAIL_ROWS);
  const cols = mailColumns(e, m.def, shown[0]);
  const lines = [
    m.ruleName,
    '',
    `Date: ${m.day}`,
    `Records: ${m.count}`,
    '',
    ...shown.map((r, i) => `${i + 1}. ${rowLine(e, cols, r)}`),
  ];
  const more = m.count - shown.length;
  if (more > 0 && !m.def.group?.length) lines.push(`... and ${more} more.`);
  lines.push('', `Open it in Campus (signed in): ${notificationPagePath(m.page, m.def, m.ruleName)}`, '', 'You get this e-mail because this notification is mapped to you with E-mail on.');
  return { to: [m.to], subject: m.ruleName, text: lines.join('\n'), what: `Notification '${m.ruleName}'` };
}
