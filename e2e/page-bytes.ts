import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page, Response } from 'playwright-core';

/** Quiet time that ends a measurement: no request open for this long. */
const IDLE_MS = 700;

export const webDist = join(import.meta.dirname, '../apps/web/dist');

export interface FetchedFile {
  path: string;
  /** Body bytes on the wire as the server sent them (0 when the browser cache answered). */
  sent: number;
  /**
   * The same body gzip-compressed: a built file's .gz (level 9, written at build), else the body
   * compressed here at level 9; bodies under 1 KB count as they are (servers send those raw).
   */
  gzip: number;
  /** content-encoding as sent ('identity' when none, 'cache' for a cache hit). */
  encoding: string;
}

function gzipSize(body: Buffer): number {
  return body.length < 1024 ? body.length : gzipSync(body, { level: 9 }).length;
}

/** A built file's gzip size, or undefined when the path is not one of the build's files. */
function builtGzipSize(path: string): number | undefined {
  if (!path.startsWith('/assets/')) return undefined;
  const file = join(webDist, decodeURIComponent(path));
  if (!existsSync(file) || !statSync(file).isFile()) return undefined;
  if (existsSync(`${file}.gz`)) return statSync(`${file}.gz`).size;
  return gzipSize(readFileSync(file));
}

/**
 * Every response a page receives while `run` goes on, until the network is idle: what the user's browser
 * downloads. gzip sizes are read from the build (or computed from the body) rather than taken from the
 * wire, so a budget in gzip bytes holds whatever encoding the browser negotiated (Chromium asks for br)
 * and whether or not the server compresses API answers.
 */
export async function fetchedDuring(page: Page, run: () => Promise<void>): Promise<FetchedFile[]> {
  const pending: Promise<FetchedFile | undefined>[] = [];
  const onResponse = (r: Response) => {
    pending.push(
      (async () => {
        const status = r.status();
        if (status === 204 || status === 304 || (status >= 300 && status < 400)) return undefined;
        const path = new URL(r.url()).pathname;
        const sizes = await r.request().sizes();
        // A response served from the cache reports -1 (or 0): it cost no bytes.
        const sent = Math.max(0, sizes.responseBodySize);
        if (sent === 0) return { path, sent: 0, gzip: 0, encoding: 'cache' };
        const encoding = (await r.allHeaders())['content-encoding'] ?? 'identity';
        let gzip = builtGzipSize(path);
        if (gzip === undefined) {
          // The body of a response whose page has moved on may be gone: then its size as sent stands in.
          const body = await r.body().catch(() => undefined);
          gzip = body ? gzipSize(body) : sent;
        }
        return { path, sent, gzip, encoding };
      })(),
    );
  };
  // Own idle tracking: waitForLoadState('networkidle') is settled once per document, so after a
  // client-side navigation (sign-in to the landing page) it would not wait for that screen's chunks.
  let inFlight = 0;
  let lastChange = performance.now();
  const started = () => {
    inFlight++;
    lastChange = performance.now();
  };
  const ended = () => {
    inFlight = Math.max(0, inFlight - 1);
    lastChange = performance.now();
  };
  page.on('response', onResponse);
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  try {
    await run();
    const deadline = performance.now() + 30_000;
    while ((inFlight > 0 || performance.now() - lastChange < IDLE_MS) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  } finally {
    page.off('response', onResponse);
    page.off('request', started);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);
  }
  return (await Promise.all(pending)).filter((f): f is FetchedFile => f !== undefined);
}

export interface ByteTotals {
  /** gzip bytes of scripts, style sheets, everything else (language file, fonts, API answers, HTML). */
  js: number;
  css: number;
  other: number;
  all: number;
  /** Bytes as actually sent (Chromium negotiates br for static files). */
  sent: number;
  files: number;
}

export function totals(files: readonly FetchedFile[]): ByteTotals {
  const sum = (re: RegExp) => files.filter((f) => re.test(f.path)).reduce((a, f) => a + f.gzip, 0);
  const js = sum(/\.m?js$/);
  const css = sum(/\.css$/);
  const all = files.reduce((a, f) => a + f.gzip, 0);
  return { js, css, other: all - js - css, all, sent: files.reduce((a, f) => a + f.sent, 0), files: files.filter((f) => f.sent > 0).length };
}

export const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;
