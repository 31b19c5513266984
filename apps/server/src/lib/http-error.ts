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
 * integer range (/api/certificate/99999999999/pdf), text where a number belongs, a NUL character, a text
 * too long or a date that does not exist (PostgreSQL's data exceptions, class 22, those a value can cause).
 * Every route's checks and the request guard (malformed-input.ts) catch these first; this keeps the rest a
 * 400 with a plain sentence instead of a 500. Drizzle wraps the driver's error, so its cause is looked at too.
 */
export function requestValueError(err: unknown): HttpError | null {
  const codeOf = (e: unknown): unknown => (typeof e === 'object' && e !== null && 'code' in e ? (e as { code: unknown }).code : undefined);
  const cause = typeof err === 'object' && err !== null && 'cause' in err ? (err as { cause: unknown }).cause : undefined;
  const code = codeOf(err) ?? codeOf(cause);
  if (code === '22003') return badRequest('A code or number in the request is out of range.');
  if (code === '22P02') return badRequest('A value in the request is not of the right kind.');
  // 22021: a NUL (or another byte UTF-8 cannot hold) in text; 22P05: the same inside a JSON value.
  if (code === '22021' || code === '22P05') return badRequest('A value in the request contains a character that cannot be stored, such as a NUL (code 0).');
  if (code === '22001') return badRequest('A value in the request is longer than its field allows.');
  if (code === '22007' || code === '22008') return badRequest('A date or time in the request is not a real one.');
  // Two requests that waited on each other (a deadlock PostgreSQL broke, a serialisation failure): nothing of
  // the aborted one was written, so the user may simply try again. Workflows keep one lock order to avoid it.
  if (code === '40P01' || code === '40001') return conflict('Another change happened at the same time. Please try again.');
  return null;
}

/**
 * Fastify's own refusals of a request it could not read, said as the rest of the API says things: its texts
 * name the framework ("content-type is set to 'application/json'") or echo the raw address back.
 */
export function frameworkRefusal(code: string | undefined): string | undefined {
  return {
    FST_ERR_BAD_URL: "The address is not valid: a '%' must be followed by two hexadecimal digits that spell UTF-8 text.",
    FST_ERR_MAX_PARAM_LENGTH: 'A part of the address is too long (at most 100 characters).',
    FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty, but its type says JSON.',
    FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
    FST_ERR_CTP_INVALID_MEDIA_TYPE: 'This kind of request body is not accepted here: send JSON.',
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body is not as long as its Content-Length says.',
  }[code ?? ''];
}
