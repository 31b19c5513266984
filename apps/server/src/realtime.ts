import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { createClient } from 'redis';
import { Server } from 'socket.io';
import type { Config } from './config';
import type { Db } from './db/client';
import { isAdminRole } from '@campus/entities/pages';
import { institutesOf, loadUser } from './access/request-context';
import { hashToken, liveHashes, onSessionsEnded, resolveSession, sessionRoom } from './access/session';
import { instituteRoom, userRoom } from './realtime-events';

export interface Realtime {
  io: Server | null;
  /** Drops every browser connection: an open websocket would otherwise hold the HTTP server's close. */
  disconnectAll(): void;
  close(): Promise<void>;
}

export interface RealtimeOptions {
  /** How often this process looks for its sockets whose sessions expired or went idle (default a minute). */
  sweepMs?: number;
  /** The Redis channel prefix of the adapter (default cfg.redisPrefix, REDIS_PREFIX): tests side by side use their own. */
  redisKey?: string;
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

/** The institute asked for, when the user's records let them work in it; null otherwise. */
async function allowedInstitute(db: Db, usrCd: number, asked: unknown): Promise<number | null> {
  const instCd = Number(asked);
  if (!Number.isInteger(instCd) || instCd <= 0) return null;
  const user = await loadUser(db, { usrCd });
  if (!user) return null;
  const mine = await institutesOf(db, usrCd, user.inst_cd, isAdminRole(user.rl_nm));
  return mine.some((i) => i.inst_cd === instCd) ? instCd : null;
}

const servers = new WeakMap<FastifyInstance, Server>();

/**
 * Which of these users have a socket open now, on any server process (through the adapter with REDIS_URL).
 * Empty without a socket server (API tests, a process without realtime).
 */
export async function usersOnline(app: FastifyInstance, usrCds: readonly number[]): Promise<Set<number>> {
  const io = servers.get(app);
  if (!io || usrCds.length === 0) return new Set();
  const sockets = await io.in(usrCds.map(userRoom)).fetchSockets();
  return new Set(sockets.map((s) => Number(s.data.usrCd)));
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
    io.adapter(createAdapter(pub, sub, { key: options.redisKey ?? cfg.redisPrefix }));
    closers.push(() => pub.quit(), () => sub.quit());
  }
  io.use((socket, next) => {
    const token = String(socket.handshake.auth.token ?? '');
    resolveSession(db, cfg, token)
      .then(async (usrCd) => {
        if (usrCd === null) return next(new Error('unauthorized'));
        const hash = hashToken(token);
        socket.data.tokenHash = hash;
        socket.data.usrCd = usrCd;
        const rooms = [userRoom(usrCd), sessionRoom(hash)];
        // The institute the page works in, as the browser says: joined only when the user's own records
        // (home institute or an active mapping) hold it, the same rule as the inst_cd header.
        const inst = await allowedInstitute(db, usrCd, socket.handshake.auth.instCd);
        if (inst !== null) rooms.push(instituteRoom(inst));
        void socket.join(rooms);
        next();
      })
      .catch(() => next(new Error('unauthorized')));
  });
  // Switching institute in the header moves the socket to that institute's room (checked again).
  io.on('connection', (socket) => {
    socket.on('join', (instCd: unknown, ack?: unknown) => {
      const reply = typeof ack === 'function' ? (ack as (r: { ok: boolean }) => void) : () => undefined;
      allowedInstitute(db, Number(socket.data.usrCd), instCd)
        .then((inst) => {
          if (inst === null) return reply({ ok: false });
          for (const room of socket.rooms) if (room.startsWith('inst:') && room !== instituteRoom(inst)) void socket.leave(room);
          void socket.join(instituteRoom(inst));
          reply({ ok: true });
        })
        .catch(() => reply({ ok: false }));
    });
  });
  servers.set(app, io);

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
      servers.delete(app);
      clearInterval(sweep);
      stopListening();
      await new Promise<void>((r) => io.close(() => r()));
      for (const c of closers) await c().catch(() => undefined);
    },
  };
}
