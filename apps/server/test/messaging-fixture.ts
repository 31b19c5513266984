import { simpleParser } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { io, type Socket } from 'socket.io-client';

export interface ReceivedMail {
  envelopeTo: string[];
  to: string;
  subject: string;
  text: string;
  from: string;
}

export interface TestSmtp {
  url: string;
  received: ReceivedMail[];
  /** Addresses the server refuses at RCPT TO (a mailbox that does not exist). */
  refuse: Set<string>;
  close(): Promise<void>;
}

/** A real SMTP server in this process (no TLS, no auth): what the mail service talks to in tests. */
export async function startSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const refuse = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, cb) {
      if (refuse.has(address.address.toLowerCase())) return cb(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
      cb();
    },
    onData(stream, session, cb) {
      simpleParser(stream)
        .then((m) => {
          const to = Array.isArray(m.to) ? m.to.map((a) => a.text).join(', ') : (m.to?.text ?? '');
          received.push({
            envelopeTo: session.envelope.rcptTo.map((r) => r.address),
            to,
            subject: m.subject ?? '',
            text: m.text ?? '',
            from: m.from?.text ?? '',
          });
          cb();
        })
        .catch((err: Error) => cb(err));
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A socket of this session (optionally asking for an institute's room); resolves once connected. */
export function connectSocket(url: string, token: string, instCd?: number): Promise<Socket> {
  const socket = io(url, { path: '/socket.io', auth: { token, instCd }, transports: ['websocket'], reconnection: false });
  return new Promise((resolve, reject) => {
    socket.on('connect', () => resolve(socket));
    socket.on('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
}

/** Every payload of one event this socket receives, in order. */
export function collect<T = Record<string, unknown>>(socket: Socket, event: string): T[] {
  const out: T[] = [];
  socket.on(event, (p: T) => out.push(p));
  return out;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
