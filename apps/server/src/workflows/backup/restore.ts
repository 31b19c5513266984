/**
 * npm run restore -- FILE: restores a Campus backup into an empty database, with the same settings the server
 * reads (DATABASE_URL for PostgreSQL, otherwise DATA_DIR for the built-in database; UPLOAD_DIR).
 */
import { configFromEnv } from '../../config';
import { restoreBackup } from './restore.service';

const file = process.argv[2];
if (!file || file === '--help' || file === '-h') {
  console.error('Usage: npm run restore -- FILE   (into an empty database: DATABASE_URL, or DATA_DIR for the built-in one)');
  process.exit(file ? 0 : 2);
}
const cfg = configFromEnv();
const where = cfg.databaseUrl ? `PostgreSQL ${new URL(cfg.databaseUrl).pathname.slice(1)}` : `DATA_DIR ${cfg.dataDir}`;
try {
  const r = await restoreBackup(file, { databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir, uploadDir: cfg.uploadDir });
  console.log(`Restored ${file} (made ${r.manifest.created_at}) into ${where} and ${r.uploads} uploaded files into ${cfg.uploadDir} in ${(r.ms / 1000).toFixed(1)} s.`);
  console.log('Start the server as usual (npm start) with the same settings.');
} catch (err) {
  console.error(`Restore refused: ${(err as Error).message}`);
  process.exit(1);
}
