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
