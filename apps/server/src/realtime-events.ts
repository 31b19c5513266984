import type { Server } from 'socket.io';

/** The events the web app listens for (spec section 7). */
export type RealtimeEvent = 'updateNotification' | 'messageSent' | 'mailSent' | 'notificationSent' | 'studentFeegroupSync';

/**
 * How server code (a handler, a job) raises an event for browsers without holding the socket server: the
 * socket server is attached after the app is built (main.ts), and until then, or in a process without one
 * (API tests), events are dropped, never thrown. With REDIS_URL the rooms span every server process.
 */
export interface RealtimeEvents {
  /** Every socket of these users (room `user:<usr_cd>`). */
  toUsers(usrCds: readonly number[], event: RealtimeEvent, payload: unknown): void;
  /** Every socket signed in to this institute (room `inst:<inst_cd>`). */
  toInstitute(instCd: number, event: RealtimeEvent, payload: unknown): void;
  attach(io: Server): void;
}

export const userRoom = (usrCd: number): string => `user:${usrCd}`;
export const instituteRoom = (instCd: number): string => `inst:${instCd}`;

export function createRealtimeEvents(): RealtimeEvents {
  let server: Server | null = null;
  return {
    toUsers(usrCds, event, payload) {
      if (server && usrCds.length > 0) server.to(usrCds.map(userRoom)).emit(event, payload);
    },
    toInstitute(instCd, event, payload) {
      server?.to(instituteRoom(instCd)).emit(event, payload);
    },
    attach(io) {
      server = io;
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    realtimeEvents: RealtimeEvents;
  }
}
