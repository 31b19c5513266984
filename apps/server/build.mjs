// Compiles the server (src/main.ts and the workspace's @campus/entities) into one JavaScript file,
// dist/main.js, so that a start loads plain JavaScript instead of transpiling some 250 TypeScript files
// (issue 10: start to healthy). Packages from node_modules stay outside the bundle, as installed: PGlite
// finds its wasm and data files, pdfmake its fonts, exactly as when run through tsx.
//
//   npm run build:server        (node apps/server/build.mjs)
import { build } from 'esbuild';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const serverDir = dirname(fileURLToPath(import.meta.url));
export const distDir = join(serverDir, 'dist');
export const outFile = join(distDir, 'main.js');
/** Every source file the bundle was made from (serve.mjs rebuilds when one is newer than the bundle). */
export const inputsFile = join(distDir, 'inputs.json');
const repoRoot = join(serverDir, '../..');

/** Bare imports stay imports of installed packages, except the workspace's own TypeScript packages. */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@campus/') ? undefined : { path: args.path, external: true }));
  },
};

/**
 * Files that find things next to themselves (migrations, the web app's language files, pdfmake's fonts through
 * createRequire) keep their own location: import.meta.url in each becomes the URL of its source file,
 * computed from the bundle's URL, so a moved checkout still works.
 */
const ownLocation = {
  name: 'own-location',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const rel = relative(distDir, args.path).split('\\').join('/');
      return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`), loader: 'ts' };
    });
  },
};

const options = {
  absWorkingDir: repoRoot,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  plugins: [externalPackages, ownLocation],
};

export async function buildServer() {
  const t0 = performance.now();
  const result = await build({
    ...options,
    entryPoints: [join(serverDir, 'src/main.ts')],
    outfile: outFile,
    sourcemap: 'linked',
    metafile: true,
    write: false,
  });
  // Each file written whole under another name and renamed: a server starting meanwhile (serve.mjs) reads the
  // old bundle or the new one, never half of one.
  await mkdir(distDir, { recursive: true });
  for (const f of result.outputFiles) {
    await writeFile(`${f.path}.${process.pid}.tmp`, f.contents);
    await rename(`${f.path}.${process.pid}.tmp`, f.path);
  }
  // Paths relative to the repository (absWorkingDir).
  const inputs = Object.keys(result.metafile.inputs);
  await writeFile(`${inputsFile}.${process.pid}.tmp`, JSON.stringify({ inputs }, null, 1));
  await rename(`${inputsFile}.${process.pid}.tmp`, inputsFile);
  return { ms: performance.now() - t0, files: inputs.length };
}

/**
 * The migrated empty database a first start copies (src/db/pglite-image.ts), made again only when the migrations
 * or PGlite changed. Its maker is compiled like the server and run here, in this process.
 */
export async function buildImage() {
  // A file of this process's own: two builds at once (an e2e run beside a bench) never import half of one.
  const maker = join(distDir, `pglite-image.${process.pid}.js`);
  await build({ ...options, entryPoints: [join(serverDir, 'src/db/pglite-image.ts')], outfile: maker });
  try {
    const { buildPgliteImage, defaultImageDir } = await import(pathToFileURL(maker).href);
    return { ...(await buildPgliteImage()), dir: defaultImageDir };
  } finally {
    await rm(maker, { force: true });
  }
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const { ms, files } = await buildServer();
  console.log(`server compiled: ${relative(process.cwd(), outFile)} from ${files} files in ${(ms / 1000).toFixed(1)} s`);
  const image = await buildImage();
  const where = relative(process.cwd(), image.dir);
  console.log(
    image.built
      ? `empty database with ${image.migrations} migrations made: ${where} in ${(image.ms / 1000).toFixed(1)} s`
      : `empty database with ${image.migrations} migrations: ${where} is up to date`,
  );
}
