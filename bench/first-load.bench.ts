/**
 * Bytes a browser downloads for the login page's first load (cold cache), then for signing in and opening
 * the first grid page (shared chunks already cached), in gzip bytes (each built file's .gz, API answers
 * gzipped here) and as sent (Chromium negotiates br for the static files). Needs a built web app and Chromium.
 *   npm run build && npx tsx bench/first-load.bench.ts            # VERBOSE=1 lists every file
 * The budget itself is asserted by e2e/first-load.e2e.ts (bytes are stable; times are not).
 */
import { signIn, startE2e } from '../e2e/browser-harness';
import { fetchedDuring, kb, totals, type FetchedFile } from '../e2e/page-bytes';

const TARGET = 250 * 1024;
const LIST = process.env.LIST ?? '/sms/master/religion/table';

const env = await startE2e();
const login = await fetchedDuring(env.page, async () => {
  await env.page.goto(`${env.baseUrl}/login`);
  await env.page.locator('button[type="submit"]').waitFor();
});
// Measured apart and to quiet, so the screen after sign-in is counted whole, not cut off by the next navigation.
const signingIn = await fetchedDuring(env.page, () => signIn(env));
const grid = await fetchedDuring(env.page, async () => {
  await env.page.goto(`${env.baseUrl}${LIST}`);
  await env.page.locator('.ag-row[row-index="0"]').waitFor();
});
await env.close();

const a = totals(login);
const s = totals(signingIn);
const b = totals(grid);
const both = totals([...login, ...signingIn, ...grid]);
console.log(`first load, gzip bytes (as sent in brackets), ${LIST}`);
console.log('| step | JS | CSS | other | all | as sent | files |');
console.log('|---|---|---|---|---|---|---|');
for (const [name, x] of [['login page, cold cache', a], ['sign-in (to the next screen)', s], ['first grid page', b], ['login + sign-in + first grid page', both]] as const) {
  console.log(`| ${name} | ${kb(x.js)} | ${kb(x.css)} | ${kb(x.other)} | ${kb(x.all)} | ${kb(x.sent)} | ${x.files} |`);
}
console.log(`\ntarget login + sign-in + first grid page <= ${kb(TARGET)} gzip: ${kb(both.all)}, ratio ${(both.all / TARGET).toFixed(2)}`);
if (process.env.VERBOSE) {
  const list = (title: string, files: FetchedFile[]) => {
    console.log(`\n${title}`);
    for (const f of [...files].filter((x) => x.sent > 0).sort((p, q) => q.gzip - p.gzip)) {
      console.log(`${String(f.gzip).padStart(8)} ${String(f.sent).padStart(8)} ${f.encoding.padEnd(8)} ${f.path}`);
    }
  };
  list('login page (gzip, sent, encoding, path)', login);
  list('sign-in', signingIn);
  list('first grid page', grid);
}
