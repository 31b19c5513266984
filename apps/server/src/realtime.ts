import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyInstance } from 'fastify';
import { createClient } from 'redis';
import { Server } from 'socket.io';
import type { Config } from './config';
import type { Db } from './db/client';
import { resolveSession } from './access/session';

export interface Realtime {
  io: Server | null;
  /** Drops every browser connection: an open websocket would otherwise hold the HTTP server's close. */
  disconnectAll(): void;
  close(): Promise<void>;
}

/**
 * socket.io on the API server. A socket must present a live session token; it joins its user's room so
 * events reach the right person. With REDIS_URL, events cross server processes through Redis.
 */
export async function attachRealtime(app: FastifyInstance, db: Db, cfg: Config): Promise<Realtime> {
  const io = new Server(app.server, { path: '/socket.io', serveClient: false });
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
        void socket.join(`user:${usrCd}`);
        next();
      })
      .catch(() => next(new Error('unauthorized')));
  });
  return {
    io,
    disconnectAll() {
      io.disconnectSockets(true);
      io.engine.close();
    },
    async close() {
      await new Promise<void>((r) => io.close(() => r()));
      for (const c of closers) await c().catch(() => undefined);
    },
  };
}
