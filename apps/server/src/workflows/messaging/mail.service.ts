import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../config';

/** The sentence shown (and answered with 409) when no SMTP server is configured. */
export const MAIL_DISABLED = 'E-mail is not set up on this server (SMTP_URL is not configured): nothing can be sent by e-mail.';

/** What the 'mail-send' job takes (see /docs: other workflows queue it by name). */
export interface MailSendData {
  /** Addresses resolved by the caller from records, never taken from a request body. */
  to: string[];
  subject: string;
  text: string;
  /** usr_cd told the result (mailSent { isSuccess, msg }) when the job ends. */
  requestedBy?: number;
  /** A short label for that result, e.g. "Circular 'Holiday notice'". */
  what?: string;
}

export interface MailResult {
  sent: string[];
  failed: { to: string; reason: string }[];
}

export const mailEnabled = (cfg: Pick<Config, 'smtpUrl'>): boolean => !!cfg.smtpUrl;

// One transport per SMTP URL, kept for the process (nodemailer reuses its settings for every message).
const transports = new Map<string, Transporter>();

function transportFor(smtpUrl: string): Transporter {
  let t = transports.get(smtpUrl);
  if (!t) {
    t = nodemailer.createTransport(smtpUrl);
    transports.set(smtpUrl, t);
  }
  return t;
}

/** A plausible address (one @, no spaces or angle brackets): anything else is reported, not sent. */
export const isMailAddress = (s: string): boolean => /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/.test(s);

/**
 * Sends one message per recipient, so no one sees the others' addresses, and one refused address does not
 * stop the rest. Throws only when the server cannot be reached at all (the job retries then).
 */
export async function sendMail(cfg: Pick<Config, 'smtpUrl' | 'mailFrom'>, mail: { to: readonly string[]; subject: string; text: string }): Promise<MailResult> {
  if (!cfg.smtpUrl) throw new Error(MAIL_DISABLED);
  const transport = transportFor(cfg.smtpUrl);
  const out: MailResult = { sent: [], failed: [] };
  let unreachable: unknown = null;
  const all = [...new Set(mail.to.map((a) => a.trim()))];
  for (const [i, to] of all.entries()) {
    if (!isMailAddress(to)) {
      out.failed.push({ to, reason: 'not a valid e-mail address' });
      continue;
    }
    try {
      await transport.sendMail({ from: cfg.mailFrom, to, subject: mail.subject, text: mail.text });
      out.sent.push(to);
    } catch (err) {
      const e = err as { code?: string; responseCode?: number; message?: string };
      // A connection failure is the server's, not the address's: the whole job is retried later.
      if (e.code === 'ECONNECTION' || e.code === 'ETIMEDOUT' || e.code === 'ESOCKET' || e.code === 'EDNS') {
        unreachable = err;
        for (const rest of all.slice(i)) out.failed.push({ to: rest, reason: 'the mail server could not be reached' });
        break;
      }
      out.failed.push({ to, reason: e.message ?? 'refused' });
    }
  }
  if (unreachable && out.sent.length === 0) throw unreachable instanceof Error ? unreachable : new Error(String(unreachable));
  return out;
}

/** Closes pooled connections (tests, shutdown). */
export function closeMailTransports(): void {
  for (const t of transports.values()) t.close();
  transports.clear();
}
