import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { timingSafeEqual } from 'node:crypto';
import { constants as zlibConstants } from 'node:zlib';
import { registerAuthRoutes, setXsrfCookie, XSRF_COOKIE } from './access/auth.routes';
import { registerRequestContext } from './access/request-context';
import type { Config } from './config';
import type { Database } from './db/client';
import { createJobQueue } from './jobs/job-queue';
import { registerJobRoutes } from './jobs/job.handler';
import { registerBackupRoutes } from './workflows/backup/backup.handler';
import { registerCrudRoutes } from './engine/crud.routes';
import { registerDocumentRoutes } from './engine/document.routes';
import { renderCertificate } from './documents/certificate.document';
import { registerBookHooks } from './hooks/book.hooks';
import { registerCertificateHooks } from './hooks/certificate.hooks';
import { registerCustomReportHooks } from './hooks/custom-report.hooks';
import { registerEmployeeHooks } from './hooks/employee.hooks';
import { registerFeeHooks } from './hooks/fee.hooks';
import { registerInstituteHooks } from './hooks/institute.hooks';
import { registerRoleHooks } from './hooks/role.hooks';
import { registerStudentDiscountHooks } from './hooks/student-discount.hooks';
import { registerUserPermissionHooks } from './hooks/user-permission.hooks';
import { frameworkRefusal, HttpError, requestValueError, unauthorized } from './lib/http-error';
import { refuseMalformedInput } from './lib/malformed-input';
import { createRealtimeEvents } from './realtime-events';
import { resolveSession } from './access/session';
import { docsRequestInterceptor } from './engine/openapi-docs';
import { registerAdmitStudentRoutes } from './workflows/admit-student/admit-student.handler';
import { registerCancelFeeRoutes } from './workflows/cancel-fee/cancel-fee.handler';
import { registerCollectFeeRoutes } from './workflows/collect-fee/collect-fee.handler';
import { registerDashboardRoutes } from './workflows/dashboard/dashboard.handler';
import { registerScheduleRoutes } from './workflows/schedule/schedule.handler';
import { registerNotificationRoutes } from './workflows/notification-rules/notification-rule.routes';
import { registerEnterMarksRoutes } from './workflows/enter-marks/enter-marks.handler';
import { registerFileRoutes } from './workflows/file-upload/file-upload.handler';
import { registerLendBooksRoutes } from './workflows/lend-books/lend-books.handler';
import { registerWalletRoutes } from './workflows/wallet/wallet.handler';
import { registerInterchangeRoutes } from './workflows/interchange-students/interchange-students.handler';
import { registerMarkAttendanceRoutes } from './workflows/mark-attendance/mark-attendance.handler';
import { registerMarkListRoutes } from './workflows/mark-list/mark-list.handler';
import { registerMessagingRoutes } from './workflows/messaging/messaging.routes';
import { registerOnlinePaymentRoutes } from './workflows/online-payment/online-payment.handler';
import { registerRollYearOverRoutes } from './workflows/roll-year-over/roll-year-over.handler';
import { registerPromoteStudentsRoutes } from './workflows/promote-students/promote-students.handler';
import { registerSaveSettingsRoutes } from './workflows/setting/save-settings.handler';
import { registerSettingRoutes } from './workflows/setting/setting.handler';
import { registerUserPermissionRoutes } from './workflows/user-permission/user-permission.handler';

let hooksRegistered = false;

const COMPRESSIBLE = /^text\/(?!event-stream)|[+/]json(?:;|$)|[+/]xml(?:;|$)|^application\/javascript|^image\/svg\+xml/;

const sameSecret = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
};

export async function buildApp(cfg: Config, database: Database, opts: { logger?: boolean } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger === false ? false : { level: cfg.logLevel },
    // The spec calls /api/setting//tablesettings: fold the double slash rather than 404 it.
    routerOptions: { ignoreDuplicateSlashes: true },
    bodyLimit: 2 * 1024 * 1024,
    trustProxy: trustFirstHops(trustedProxyHops(process.env.TRUST_PROXY)),
    // On shutdown, idle keep-alive sockets close at once; in-flight requests finish first.
    forceCloseConnections: 'idle',
    // An address Fastify cannot route (bad % escapes, an over-long part) is answered before any hook runs.
    frameworkErrors: (err, _req, rawReply) => {
      const status = err.statusCode ?? 400;
      const reply = rawReply as unknown as FastifyReply;
      reply.code(status).header('cache-control', 'no-store');
      return reply.send({ statusCode: status, error: statusText(status), message: frameworkRefusal(err.code) ?? 'The address is not valid.' });
    },
  });
  const db = database.db;
  // Events raised before the socket server is attached (main.ts), or in a process without one, are dropped.
  app.decorate('realtimeEvents', createRealtimeEvents());
  // Handlers may always send; workers and schedules run once started (main.ts after listen, or a test).
  app.decorate('jobs', createJobQueue({ database, cfg, log: app.log, events: app.realtimeEvents }));
  app.addHook('onClose', async () => app.jobs.stop());

  if (!hooksRegistered) {
    registerEmployeeHooks();
    registerCustomReportHooks();
    registerInstituteHooks();
    registerRoleHooks();
    registerUserPermissionHooks();
    registerStudentDiscountHooks();
    registerFeeHooks();
    registerCertificateHooks();
    registerBookHooks();
    hooksRegistered = true;
  }

  await app.register(cookie);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine and AG Grid set inline styles.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        fontSrc: ["'self'", 'data:'],
        // Printed documents: the web shows the server's PDF from a blob: URL in a hidden frame (print-pdf.ts).
        frameSrc: ["'self'", 'blob:'],
      },
    },
  });
  // A page of 50 students is ~25 KB of JSON, ~3 KB compressed. Only text kinds: PDFs, spreadsheets, images
  // and uploaded files are already compressed (or opaque octet streams), so they are sent as they are; the
  // web build's own .br/.gz files are served by @fastify/static (preCompressed) and left alone here.
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    customTypes: COMPRESSIBLE,
    // Answers up to 512 KB (a page of 500 rows) are compressed in one synchronous call: the plugin's default
    // on two cores (8 KB) sent a 30 KB page through a zlib stream, 0.22-0.25 ms of CPU against 0.09 ms, plus
    // the thread-pool hops. Brotli 3 and gzip 3: 3,746 / 4,125 bytes for that page against 3,700 / 3,701 at
    // the plugin's levels (brotli 4, gzip 6), for 0.09 / 0.06 ms of CPU against 0.13 / 0.13 ms.
    syncThreshold: 512 * 1024,
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 3, [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT } },
    zlibOptions: { level: 3 },
    // Requests are not inflated: a small compressed body could expand past the body limit's intent.
    globalDecompression: false,
  });
  await app.register(multipart, { limits: { fileSize: 5 * 1024 * 1024, files: 1, fields: 10 } });
  await app.register(swagger, {
    // Body and query documentation comes from the declarations (route config 'docs'), not from Fastify's
    // own validation: the handlers validate with zod and answer in the contract's error shape.
    transform: ({ schema, url, route }) => ({ url, schema: { ...schema, ...(route.config?.docs ?? {}) } }),
    openapi: {
      info: { title: 'Campus back office API', version: '0.1.0', description: 'Generated from the route declarations.' },
      components: {
        securitySchemes: { auth_token: { type: 'apiKey', in: 'header', name: 'auth_token' } },
      },
    },
  });
  // The page and its scripts hold nothing of the school; the description (json/yaml) needs a signed-in user,
  // which the page's interceptor sends from the web app's sign-in in the same browser.
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: false,
    uiConfig: { requestInterceptor: docsRequestInterceptor },
    uiHooks: {
      preHandler: async (req) => {
        if (!/\/(json|yaml)$/.test(req.routeOptions.url ?? '')) return;
        const token = req.headers.auth_token;
        if (typeof token !== 'string' || token === 'login' || (await resolveSession(db, cfg, token)) === null) {
          throw unauthorized('Sign in to read the API documentation.');
        }
      },
    },
  });

  // Anti-forgery: every mutating API call must echo the XSRF-TOKEN cookie in X-XSRF-TOKEN.
  app.addHook('onRequest', async (req, reply) => {
    const cookieVal = req.cookies[XSRF_COOKIE];
    if (!cookieVal) setXsrfCookie(reply, cfg);
    const mutating = !['GET', 'HEAD', 'OPTIONS'].includes(req.method);
    // Decided by the matched route, never by the raw URL ('//api/x' and '/%61pi/x' reach the same handler).
    const access = req.routeOptions.config?.access;
    if (!mutating || req.is404 || access?.kind === 'public') return;
    const headerVal = req.headers['x-xsrf-token'];
    if (typeof headerVal !== 'string' || !cookieVal || !sameSecret(headerVal, cookieVal)) {
      throw new HttpError(403, 'Invalid or missing XSRF token. Reload the page and try again.');
    }
  });

  // A NUL character or an out-of-range code anywhere in the request: a sentence, before any handler runs.
  app.addHook('preValidation', async (req) => refuseMalformedInput(req));
  // No API answer is kept by the browser or a proxy: a shared office computer keeps no pupil's data.
  app.addHook('onSend', async (req, reply) => {
    if (/^\/+api(\/|$)/.test(req.routeOptions.url ?? req.url)) reply.header('cache-control', 'no-store');
  });

  registerRequestContext(app, db, cfg);

  app.setErrorHandler((caught: FastifyError | HttpError, req, reply) => {
    const err = caught instanceof HttpError ? caught : (requestValueError(caught) ?? caught);
    // The database refused a request value no check caught first: answered as a 400, but worth a check of its own.
    if (err !== caught) req.log.warn({ err: caught }, 'request value refused by the database');
    if (err instanceof HttpError) {
      const body: Record<string, unknown> = { statusCode: err.statusCode, error: statusText(err.statusCode), message: err.message };
      if (err.details) body.details = err.details;
      return reply.code(err.statusCode).send(body);
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message = status === 413 ? 'The file or request is too large.' : (frameworkRefusal(err.code) ?? err.message);
      return reply.code(status).send({ statusCode: status, error: statusText(status), message });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ statusCode: 500, error: 'Internal Server Error', message: 'Internal server error, Please try again later.' });
  });

  app.get('/api/health', { config: { access: { kind: 'public' } }, schema: { tags: ['Health'] } }, async () => {
    await db.execute('SELECT 1' as never);
    return { status: 'ok', db: database.kind };
  });

  await registerAuthRoutes(app, db, cfg);
  registerUserPermissionRoutes(app, db);
  registerSettingRoutes(app, db);
  registerSaveSettingsRoutes(app, db);
  registerDashboardRoutes(app, db);
  registerScheduleRoutes(app, db);
  registerNotificationRoutes(app, db);
  registerCollectFeeRoutes(app, db);
  registerCancelFeeRoutes(app, db);
  registerOnlinePaymentRoutes(app, db);
  registerFileRoutes(app, db, cfg);
  registerMarkAttendanceRoutes(app, db);
  registerInterchangeRoutes(app, db);
  registerAdmitStudentRoutes(app, db);
  registerPromoteStudentsRoutes(app, db);
  registerEnterMarksRoutes(app, db);
  registerMarkListRoutes(app, db);
  registerMessagingRoutes(app, db, cfg);
  registerRollYearOverRoutes(app, db);
  registerLendBooksRoutes(app, db);
  registerWalletRoutes(app, db);
  registerJobRoutes(app);
  registerBackupRoutes(app, db, cfg);
  registerCrudRoutes(app, db, new Set(['GET /api/user_permission/', 'GET /api/quick_menu/', 'POST /api/quick_menu/']));
  registerDocumentRoutes(app, db, { 'certificate/print': renderCertificate });

  if (cfg.webDist && existsSync(join(cfg.webDist, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: cfg.webDist,
      wildcard: false,
      index: ['index.html'],
      preCompressed: true,
      // Hashed asset names never change content: cache them for a year. index.html and the language files
      // (public/assets/language: the same name whatever the translation says) are always revalidated.
      setHeaders: (res, path) =>
        res.header('cache-control', path.includes('/assets/') && !path.includes('/assets/language/') ? 'public, max-age=31536000, immutable' : 'no-cache'),
    });
  }
  app.setNotFoundHandler((req, reply) => {
    // Client-side routes (sms/..., login) get the app shell; unknown API paths a JSON 404.
    if (req.method === 'GET' && !req.url.startsWith('/api/') && cfg.webDist && existsSync(join(cfg.webDist, 'index.html'))) {
      return reply.type('text/html').sendFile('index.html');
    }
    return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: `No route ${req.method} ${req.url.split('?')[0]}` });
  });
  return app;
}

/**
 * TRUST_PROXY=N: N reverse proxies stand in front of the server, so the client address is the N-th from
 * the right of X-Forwarded-For. Trusting every hop would let a client forge its address (and dodge the
 * per-address sign-in lock) by sending its own X-Forwarded-For.
 */
export function trustedProxyHops(value: string | undefined): number | false {
  if (!value || !/^\d{1,2}$/.test(value.trim())) return false;
  const n = Number(value.trim());
  return n > 0 ? n : false;
}

/** proxy-addr walks X-Forwarded-For from the socket inwards: trust the first n hops, not the client's own. */
const trustFirstHops = (n: number | false): boolean | ((address: string, hop: number) => boolean) =>
  n === false ? false : (_address, hop) => hop < n;

function statusText(code: number): string {
  return (
    { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict', 413: 'Payload Too Large', 414: 'URI Too Long', 415: 'Unsupported Media Type', 429: 'Too Many Requests' }[code] ??
    'Error'
  );
}
