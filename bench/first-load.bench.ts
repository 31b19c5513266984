/**
 * Bytes a browser downloads (compressed, as sent) for the login page's first load, and then for the first
 * grid page after sign-in. Needs a built web app (npm run build) and Chromium.
 *   npx tsx bench/first-load.bench.ts
 */
import type { Page } from 'playwright-core';
import { signIn, startE2e } from '../e2e/browser-harness';

const env = await startE2e();

async function measure(page: Page, run: () => Promise<void>): Promise<{ js: number; css: number; all: number; files: number }> {
  const sizes: Promise<{ url: string; bytes: number }>[] = [];
  const onResponse = (r: import('playwright-core').Response) => {
    // A response served from the cache reports -1: it cost no bytes.
    sizes.push(r.request().sizes().then((s) => ({ url: r.url(), bytes: Math.max(0, s.responseBodySize) })));
  };
  page.on('response', onResponse);
  await run();
  await page.waitForLoadState('networkidle');
  page.off('response', onResponse);
  const all = await Promise.all(sizes);
  const sum = (re: RegExp) => all.filter((x) => re.test(new URL(x.url).pathname)).reduce((a, x) => a + x.bytes, 0);
  return { js: sum(/\.js$/), css: sum(/\.css$/), all: all.reduce((a, x) => a + x.bytes, 0), files: all.length };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const login = await measure(env.page, async () => {
  await env.page.goto(`${env.baseUrl}/login`);
});
console.log(`login page, cold cache: JS ${kb(login.js)}, CSS ${kb(login.css)}, all ${kb(login.all)} in ${login.files} responses`);
const grid = await measure(env.page, async () => {
  await signIn(env);
  await env.page.goto(`${env.baseUrl}/sms/master/religion/table`);
  await env.page.locator('.ag-row[row-index="0"]').waitFor();
});
console.log(`sign-in + first grid page (warm cache for shared chunks): JS ${kb(grid.js)}, CSS ${kb(grid.css)}, all ${kb(grid.all)} in ${grid.files} responses`);
await env.close();
