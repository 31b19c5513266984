import type { FastifyRequest } from 'fastify';
import { badRequest } from './http-error';

/**
 * Checks every request makes before its handler, whatever the route: values no field can hold anywhere.
 * PostgreSQL refuses a NUL character in text (22021) and an integer column holds at most 2^31-1 (22003); a
 * request carrying either is the sender's mistake, so it is told so in a sentence naming the value, before
 * any statement runs (the error handler maps the database's own refusal too, as a safety net).
 */

/** The largest PostgreSQL integer: every key and link column is one (int4). */
export const MAX_INT = 2_147_483_647;

/** The sentence for a whole number out of its range, named as the request named it. */
export const wholeNumberMessage = (name: string, max: number = MAX_INT): string =>
  `The value of '${quotable(name)}' must be a whole number from 1 to ${max}.`;

/** A request's name fit to quote back: control characters shown as \uXXXX, at most 60 characters. */
export function quotable(name: string): string {
  const shown = name.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return shown.length > 60 ? `${shown.slice(0, 57)}...` : shown;
}

const NUL = '\u0000';

/**
 * Where the first NUL character sits in a parsed query, params or JSON body: in a value (its path, such as
 * `rows[2].stud_nm`) or in a name. Walked with a stack, not by recursion: a deeply nested body must not
 * overflow the call stack.
 */
export function findNul(value: unknown, root: string): { path: string; inName: boolean } | null {
  const stack: { v: unknown; path: string }[] = [{ v: value, path: root }];
  while (stack.length) {
    const { v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes(NUL)) return { path, inName: false };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: `${path}[${i}]` });
    } else if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v)) {
      // A raw body (the payment webhook's Buffer) is its route's own to read: only parsed values are walked.
      for (const [k, child] of Object.entries(v)) {
        if (k.includes(NUL)) return { path, inName: true };
        stack.push({ v: child, path: path ? `${path}.${k}` : k });
      }
    }
  }
  return null;
}

function nulMessage(found: { path: string; inName: boolean }): string {
  if (found.inName) return 'A name in the request contains a NUL character (code 0), which no name or value may contain.';
  if (found.path === '') return 'The request contains a NUL character (code 0), which no value may contain.';
  return `The value of '${quotable(found.path)}' contains a NUL character (code 0), which no value may contain.`;
}

/**
 * Refuses a request whose query, route params or body hold a NUL character, or whose route params hold a
 * number past the integer range (`/api/religion/2147483648`): 400 with a sentence, before the handler.
 */
export function refuseMalformedInput(req: FastifyRequest): void {
  for (const part of [req.params, req.query, req.body]) {
    const found = findNul(part, '');
    if (found) throw badRequest(nulMessage(found));
  }
  const params = (req.params ?? {}) as Record<string, unknown>;
  for (const [name, v] of Object.entries(params)) {
    // '*' is a file path under a static prefix, not a code.
    if (name === '*' || typeof v !== 'string' || !/^\d+$/.test(v) || Number(v) <= MAX_INT) continue;
    throw badRequest(name === 'id' ? `The record code must be a whole number from 1 to ${MAX_INT}.` : wholeNumberMessage(name));
  }
}
