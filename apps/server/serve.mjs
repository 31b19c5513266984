// `npm run serve`: starts the compiled server (dist/main.js, see build.mjs). A bundle older than any of the
// source files it was made from (a pull, an edit, a bench run on a working tree) is compiled again first
// (a fraction of a second), so a start never runs yesterday's code; an up-to-date bundle starts as it is.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const serverDir = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(serverDir, '../..');
const outFile = join(serverDir, 'dist/main.js');
const inputsFile = join(serverDir, 'dist/inputs.json');

function stale() {
  if (!existsSync(outFile) || !existsSync(inputsFile)) return true;
  const built = statSync(outFile).mtimeMs;
  const { inputs } = JSON.parse(readFileSync(inputsFile, 'utf8'));
  // A source file that is gone (a deploy of dist alone) does not make the bundle stale.
  return inputs.some((p) => {
    try {
      return statSync(join(repoRoot, p)).mtimeMs > built;
    } catch {
      return false;
    }
  });
}

if (stale()) {
  const { buildServer } = await import('./build.mjs');
  const { ms } = await buildServer();
  console.log(`  (server compiled in ${(ms / 1000).toFixed(1)} s: its sources changed since the last build)`);
}
await import(pathToFileURL(outFile).href);
