import { join, resolve } from 'node:path';

export interface Config {
  port: number;
  /** Interface to listen on: 127.0.0.1 by default, 0.0.0.0 for every interface (HOST). */
  host: string;
  /** PGlite folder; 'memory://' for an in-memory database (tests). */
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  /** Prefix of the realtime channels in Redis (REDIS_PREFIX): two deployments sharing one Redis keep apart. */
  redisPrefix: string;
  /** PostgreSQL: named (prepared) statements, reused per connection (PG_PREPARED_STATEMENTS=0 turns them off). */
  preparedStatements: boolean;
  adminPassword?: string;
  /** Built web app to serve; absent in API-only tests. */
  webDist?: string;
  logLevel: string;
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  /** Live sessions a user may hold at once; signing in beyond it ends the least recently used (SESSION_MAX_PER_USER). */
  sessionMaxPerUser: number;
  /** Origins besides the server's own that may open the realtime socket (ALLOWED_ORIGINS, comma-separated). */
  allowedOrigins: string[];
  /**
   * Sign-in throttling (access/login-throttle.ts): failures per login id and address before each further try
   * waits (twice that per login id, six times per address), the first wait (doubling with each failure), the
   * longest wait, the longest wait an address alone can impose, and how long a counter lasts without failures.
   */
  loginFreeFailures: number;
  loginFirstWaitMs: number;
  loginMaxWaitMinutes: number;
  loginAddressMaxWaitSeconds: number;
  loginForgetHours: number;
  /** The answer to a failed sign-in is held back this much longer per failure after the second (at most 5 s). */
  failureDelayMs: number;
  /** Fill an empty database with the demo school's and college's content (DEMO_DATA=0: institutes and masters only). */
  demoData: boolean;
  /** One password for every demo account; otherwise each gets a random one, printed once. */
  demoPassword?: string;
  /** Set secure cookies (behind HTTPS). */
  secureCookies: boolean;
  /**
   * Uploaded files: outside the web root, never served statically (only through GET /api/file/...).
   * Several server processes (PostgreSQL deployments) must share it.
   */
  uploadDir: string;
  /** Outgoing e-mail (SMTP_URL, e.g. smtps://user:pass@mail.example.org:465); without it e-mail is disabled. */
  smtpUrl?: string;
  /** The From of e-mails sent (MAIL_FROM). */
  mailFrom: string;
  /**
   * Backups are written only inside this folder (BACKUP_ROOT; default DATA_DIR/backups): a backup row's path
   * is a folder under it. Keep it on another disk, or copy it off the machine.
   */
  backupRoot: string;
  /** Backups kept per backup row; older ones are deleted after each successful run (BACKUP_KEEP, default 7). */
  backupKeep: number;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const root = process.cwd();
  return {
    port: Number(env.PORT ?? 3000),
    // This computer only unless asked: a first start prints passwords, and the office network is opted into
    // with HOST=0.0.0.0 (README, Configuration).
    host: env.HOST || '127.0.0.1',
    dataDir: env.DATA_DIR ?? join(root, 'data'),
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: env.REDIS_PREFIX || 'socket.io',
    preparedStatements: env.PG_PREPARED_STATEMENTS !== '0',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    webDist: env.WEB_DIST ?? join(root, 'apps/web/dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    sessionIdleMinutes: Number(env.SESSION_IDLE_MINUTES ?? 120),
    sessionMaxHours: Number(env.SESSION_MAX_HOURS ?? 12),
    sessionMaxPerUser: Math.max(1, Number(env.SESSION_MAX_PER_USER ?? 5) || 5),
    allowedOrigins: (env.ALLOWED_ORIGINS ?? '').split(',').map((o) => o.trim().replace(/\/+$/, '')).filter(Boolean),
    loginFreeFailures: Number(env.LOCKOUT_FAILURES ?? 5),
    loginFirstWaitMs: Number(env.LOGIN_FIRST_WAIT_MS ?? 1000),
    loginMaxWaitMinutes: Number(env.LOCKOUT_MINUTES ?? 15),
    loginAddressMaxWaitSeconds: Number(env.LOGIN_ADDRESS_MAX_WAIT_SECONDS ?? 60),
    loginForgetHours: Number(env.LOGIN_FORGET_HOURS ?? 24),
    failureDelayMs: Number(env.LOGIN_FAILURE_DELAY_MS ?? 500),
    demoData: env.DEMO_DATA !== '0',
    demoPassword: env.DEMO_PASSWORD || undefined,
    secureCookies: env.SECURE_COOKIES === '1',
    uploadDir: env.UPLOAD_DIR || join(env.DATA_DIR ?? join(root, 'data'), 'uploads'),
    backupRoot: resolve(env.BACKUP_ROOT || join(env.DATA_DIR ?? join(root, 'data'), 'backups')),
    backupKeep: Math.max(1, Math.floor(Number(env.BACKUP_KEEP ?? 7)) || 7),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Campus <no-reply@localhost>',
  };
}
