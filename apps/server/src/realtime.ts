import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { createClient } from 'redis';
import { Server } from 'socket.io';
import type { Config } from './config';
import type { Db } from './db/client';
import { hashToken, liveHashes, onSessionsEnded, resolveSession, sessionRoom } from './access/session';

export interface Realtime {
  io: Server | null;
  /** Drops every browser connection: an open websocket would otherwise hold the HTTP server's close. */
  disconnectAll(): void;
  close(): Promise<void>;
}

export interface RealtimeOptions {
  /** How often this process looks for its sockets whose sessions expired or went idle (default a minute). */
  sweepMs?: number;
}

/**
 * Whether a handshake may come from where it says. No Origin: not a browser page of another site (browsers
 * always send one for a cross-site websocket or request; a same-site polling GET may omit it), and the
 * session token is still required. Otherwise the page must be this server's own (its Host, whatever the
 * scheme: a TLS proxy in front changes it) or one of ALLOWED_ORIGINS.
 */
export function originAllowed(req: IncomingMessage, allowed: readonly string[]): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  if (allowed.includes(origin.replace(/\/+$/, ''))) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

/**
 * socket.io on the API server. A socket must present a live session token and come from an allowed origin;
 * it joins its user's room so events reach the right person, and its session's room so it closes when the
 * session ends. With REDIS_URL, events (and those closings) cross server processes through Redis.
 */
export async function attachRealtime(app: FastifyInstance, db: Db, cfg: Config, options: RealtimeOptions = {}): Promise<Realtime> {
  const io = new Server(app.server, {
    path: '/socket.io',
    serveClient: false,
    allowRequest: (req, done) => {
      const ok = originAllowed(req, cfg.allowedOrigins);
      done(ok ? null : 'origin not allowed', ok);
    },
  });
  const closers: (() => Promise<unknown>)[] = [];
  if (cfg.redisUrl) {
    const pub = createClient({ url: cfg.redisUrl });
    const sub = pub.duplicate();
    await Promise.all([pub.connect(), sub.connect()]);
    io.adapter(createAdapter(pub, sub));
    closers.push(() => pub.quit(), () => sub.quit());
  }
  io.use((socket, next) => {
    const token = String(socket.handshake.auth.token ?? '');
    resolveSession(db, cfg, token)
      .then((usrCd) => {
        if (usrCd === null) return next(new Error('unauthorized'));
        const hash = hashToken(token);
        socket.data.tokenHash = hash;
        void socket.join([`user:${usrCd}`, sessionRoom(hash)]);
        next();
      })
      .catch(() => next(new Error('unauthorized')));
  });

  // Ended sessions (logout, 'Signed-in devices', the per-user limit, password, allow login off): through
  // the adapter, so a socket held by another process closes too.
  const stopListening = onSessionsEnded((rooms) => io.in(rooms).disconnectSockets(true));

  // Expiry and idleness happen without a request to notice them: each process checks its OWN sockets'
  // sessions once a minute (one indexed query for all of them) rather than on every emit, because most
  // sockets only listen and an emit-time check would put a query in the path of every notification.
  const sweep = setInterval(() => {
    const sockets = [...io.of('/').sockets.values()];
    const hashes = [...new Set(sockets.map((s) => String(s.data.tokenHash ?? '')))].filter(Boolean);
    liveHashes(db, cfg, hashes)
      .then((live) => {
        for (const s of sockets) if (!live.has(String(s.data.tokenHash ?? ''))) s.disconnect(true);
      })
      .catch((err: unknown) => app.log.warn({ err }, 'realtime session sweep failed'));
  }, options.sweepMs ?? 60_000);
  sweep.unref();

  app.realtimeEvents.attach(io);
  return {
    io,
    disconnectAll() {
      io.disconnectSockets(true);
      io.engine.close();
    },
    async close() {
      clearInterval(sweep);
      stopListening();
      await new Promise<void>((r) => io.close(() => r()));
      for (const c of closers) await c().catch(() => undefined);
    },
  };
}
