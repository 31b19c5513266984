/** An error whose message is safe and meant for the user; the status says what kind. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details?: { field: string; message: string }[],
  ) {
    super(message);
  }
}

export const badRequest = (m: string, details?: { field: string; message: string }[]) => new HttpError(400, m, details);
export const unauthorized = (m: string) => new HttpError(401, m);
export const forbidden = (m: string) => new HttpError(403, m);
export const notFound = (m: string) => new HttpError(404, m);
export const conflict = (m: string) => new HttpError(409, m);

export const CREDENTIALS_CHANGED = "Please don't change login credentials.";

/**
 * Database refusals that come from a value the request carried, not from the server: a code past the
 * integer range (/api/certificate/99999999999/pdf) or text where a number belongs. Every route's zod checks
 * catch most of these first; this keeps the rest a 400 with a plain sentence instead of a 500. Drizzle wraps
 * the driver's error, so its cause is looked at too.
 */
export function requestValueError(err: unknown): HttpError | null {
  const codeOf = (e: unknown): unknown => (typeof e === 'object' && e !== null && 'code' in e ? (e as { code: unknown }).code : undefined);
  const cause = typeof err === 'object' && err !== null && 'cause' in err ? (err as { cause: unknown }).cause : undefined;
  const code = codeOf(err) ?? codeOf(cause);
  if (code === '22003') return badRequest('A code or number in the request is out of range.');
  if (code === '22P02') return badRequest('A value in the request is not of the right kind.');
  // Two requests that waited on each other (a deadlock PostgreSQL broke, a serialisation failure): nothing of
  // the aborted one was written, so the user may simply try again. Workflows keep one lock order to avoid it.
  if (code === '40P01' || code === '40001') return conflict('Another change happened at the same time. Please try again.');
  return null;
}
