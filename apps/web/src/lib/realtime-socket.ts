import { io, type Socket } from 'socket.io-client';
import { getSession, subscribeSession } from './session-store';
import { toast } from './toast';

export const SOCKET_FAILURE_MESSAGE = 'Sorry!! Not able to sent notification.';

/** Events the server pushes (spec section 7). */
export const socketEvents = ['mailSent', 'messageSent', 'updateNotification', 'studentFeegroupSync', 'notificationSent'] as const;
export type SocketEventName = (typeof socketEvents)[number];

/** Re-broadcast on window so pages (engine, workflows) can refresh without importing the socket. */
export const SOCKET_DOM_EVENT = 'campus:socket';
export interface SocketDomDetail {
  event: SocketEventName;
  payload: unknown;
}

let socket: Socket | null = null;
let stopFollowing: (() => void) | null = null;

export interface MessagePayload {
  to?: unknown;
  usr_cd?: unknown;
  usr_nm?: unknown;
  receiver?: unknown;
  from?: unknown;
  message?: unknown;
  msg?: unknown;
}

/** A messageSent payload is shown only to the user it names (by code or login id). */
export function isAddressedTo(payload: MessagePayload, user: { usr_cd: number; usr_nm: string }): boolean {
  const targets = [payload.to, payload.usr_cd, payload.usr_nm, payload.receiver].flatMap((v) => (Array.isArray(v) ? v : [v]));
  return targets.some((t) => t !== undefined && t !== null && (String(t) === String(user.usr_cd) || String(t).toUpperCase() === user.usr_nm.toUpperCase()));
}

export function messageText(payload: MessagePayload): string | null {
  const m = payload.message ?? payload.msg;
  return typeof m === 'string' && m.trim() !== '' ? m : null;
}

export function connectRealtime(): Socket | null {
  const { user } = getSession();
  if (!user || typeof window === 'undefined') return null;
  if (socket) return socket;
  // The institute the page works in: the server joins the socket to that institute's room (events such as
  // studentFeegroupSync) only when the user's own records hold it. The auth is read at each (re)connection.
  socket = io({
    path: '/socket.io',
    auth: (cb) => cb({ token: user.usr_token, usercode: user.usr_cd, instCd: getSession().institute?.inst_cd }),
    // A server without realtime must not cost more than a few quiet retries.
    reconnectionAttempts: 5,
    reconnectionDelay: 3000,
    reconnectionDelayMax: 30_000,
    timeout: 10_000,
  });

  socket.on('messageSent', (payload: MessagePayload) => {
    const me = getSession().user;
    const text = payload && typeof payload === 'object' ? messageText(payload) : null;
    if (me && text && isAddressedTo(payload, me)) toast.info(text, typeof payload.from === 'string' ? payload.from : undefined);
  });
  const resultToast = (payload: { isSuccess?: unknown; msg?: unknown }) => {
    if (!payload || typeof payload !== 'object') return;
    const msg = typeof payload.msg === 'string' && payload.msg ? payload.msg : null;
    if (payload.isSuccess) {
      if (msg) toast.success(msg);
    } else toast.danger(msg ?? SOCKET_FAILURE_MESSAGE);
  };
  socket.on('notificationSent', resultToast);
  socket.on('mailSent', resultToast);
  for (const event of socketEvents) {
    socket.on(event, (payload: unknown) => {
      window.dispatchEvent(new CustomEvent<SocketDomDetail>(SOCKET_DOM_EVENT, { detail: { event, payload } }));
    });
  }
  // Switching institute in the header moves the socket to that institute's room.
  let joined = getSession().institute?.inst_cd;
  stopFollowing = subscribeSession(() => {
    const inst = getSession().institute?.inst_cd;
    if (inst === undefined || inst === joined) return;
    joined = inst;
    if (socket?.connected) socket.emit('join', inst);
  });
  // connect_error stays quiet: the toast is for a notification that could not be sent, not for a missing server.
  return socket;
}

export function disconnectRealtime(): void {
  stopFollowing?.();
  stopFollowing = null;
  socket?.disconnect();
  socket = null;
}

/** Emits a notification; no socket or no acknowledgement in time gives the spec's failure toast. */
export function sendNotification(payload: unknown, event = 'sendNotification', timeoutMs = 5000): Promise<boolean> {
  const s = socket;
  if (!s || !s.connected) {
    toast.danger(SOCKET_FAILURE_MESSAGE);
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    s.timeout(timeoutMs).emit(event, payload, (err: unknown) => {
      if (err) toast.danger(SOCKET_FAILURE_MESSAGE);
      resolve(!err);
    });
  });
}
