import type { MultipartFile } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PassThrough } from 'node:stream';
import { HttpError, requestValueError } from '../lib/http-error';
import { TOO_LARGE, type ImportProgress, type ImportResult, type OnImportProgress } from './import.service';

/**
 * The import's answer with progress (issue 10): a client that accepts NDJSON hears one line per step while
 * the file is read, checked and written ({"phase":"read","done":12000}), then one line with the result
 * ({"result":{...}}) or, for a refusal that came after the first line had gone out, one line with the error
 * ({"error":{"statusCode":400,"message":"..."}}). Any other client gets the plain JSON answer, as before.
 *
 * The answer starts only with the first progress line, so a refusal known early (not a spreadsheet, a
 * signature that is not a zip's, a header row of another table) is still an ordinary 4xx. The content type
 * is not one that compression applies to (app.ts COMPRESSIBLE), which would hold the lines back.
 */

export const PROGRESS_TYPE = 'application/x-ndjson';

export type ProgressLine = ImportProgress | { result: ImportResult } | { error: { statusCode: number; message: string; details?: { field: string; message: string }[] } };

export const wantsProgress = (req: FastifyRequest): boolean => (req.headers.accept ?? '').toLowerCase().includes(PROGRESS_TYPE);

/** The upload's bytes as they arrive; past MAX_IMPORT_BYTES (the multipart reader cuts the file there) a 413. */
export async function* uploadBytes(file: MultipartFile): AsyncGenerator<Buffer> {
  for await (const chunk of file.file) {
    if (file.file.truncated) throw new HttpError(413, TOO_LARGE);
    yield chunk as Buffer;
  }
  if (file.file.truncated) throw new HttpError(413, TOO_LARGE);
}

export async function answerImport(
  req: FastifyRequest,
  reply: FastifyReply,
  run: (onProgress?: OnImportProgress) => Promise<ImportResult>,
): Promise<ImportResult | FastifyReply> {
  if (!wantsProgress(req)) return run();
  let out: PassThrough | null = null;
  const line = (v: ProgressLine): void => {
    if (!out) {
      out = new PassThrough();
      // no-store: a progress answer is never reused; X-Accel-Buffering: a proxy in front passes lines on as they come.
      void reply.code(200).header('content-type', `${PROGRESS_TYPE}; charset=utf-8`).header('cache-control', 'no-store').header('x-accel-buffering', 'no').send(out);
    }
    out.write(`${JSON.stringify(v)}\n`);
  };
  try {
    line({ result: await run(line) });
  } catch (err) {
    if (!out) throw err;
    // As the app's error handler would have answered it, had the answer not started.
    const known = err instanceof HttpError ? err : requestValueError(err);
    if (known) line({ error: { statusCode: known.statusCode, message: known.message, ...(known.details ? { details: known.details } : {}) } });
    else {
      req.log.error({ err }, 'import failed after its progress answer had started');
      line({ error: { statusCode: 500, message: 'Internal server error, Please try again later.' } });
    }
  } finally {
    (out as PassThrough | null)?.end();
  }
  return reply;
}
