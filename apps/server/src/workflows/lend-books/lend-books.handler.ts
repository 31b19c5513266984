import { entity } from '@campus/entities/registry';
import type { FastifyInstance } from 'fastify';
import type { ZodType } from 'zod';
import { mustCtx } from '../../access/request-context';
import { rows, sql, type Db } from '../../db/client';
import { listRows } from '../../engine/crud.service';
import { badRequest } from '../../lib/http-error';
import { bookSearchSchema, holderQuerySchema, holderSearchSchema, issueBooksSchema, returnBooksSchema } from './lend-books.schema';
import { copiesOut, holderBooks, holderOf, issueBooks, returnBooks, type Holder } from './lend-books.service';

const issuePage = { module: 'library', page: 'book_checkout' } as const;
const returnPage = { module: 'library', page: 'book_checkin' } as const;
const stockPage = { module: 'library', page: 'book_checkinout_summary' } as const;
const deskPages = [issuePage, returnPage] as const;
const studentEntity = entity('student');

function parse<T>(schema: ZodType<T>, value: unknown, fallback: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? fallback);
  return parsed.data;
}

interface BookHit {
  bk_cd: number;
  bk_nm: string;
  bk_barcd: string | null;
  bk_qty: number;
  /** Copies out with anyone now, and what is left on the shelf. */
  out: number;
  available: number;
}

/** The library desk: issue, return, the holder's books, and the finders the desk screen uses. */
export function registerLendBooksRoutes(app: FastifyInstance, db: Db): void {
  const tags = ['Library'];

  app.post('/api/bookcheckout/issue', { config: { access: { kind: 'page', pages: [issuePage], button: 'create' } }, schema: { tags, summary: 'Issue books to a student or an employee' } }, async (req, reply) => {
    const input = parse(issueBooksSchema, req.body, 'Invalid issue.');
    const r = await issueBooks(db, mustCtx(req), input);
    reply.code(r.repeated ? 200 : 201);
    return r;
  });

  app.post('/api/bookcheckin/return', { config: { access: { kind: 'page', pages: [returnPage], button: 'create' } }, schema: { tags, summary: 'Take books back from a student or an employee' } }, async (req, reply) => {
    const input = parse(returnBooksSchema, req.body, 'Invalid return.');
    const r = await returnBooks(db, mustCtx(req), input);
    reply.code(r.repeated ? 200 : 201);
    return r;
  });

  app.get(
    '/api/bookcheckinoutsummary/holder',
    { config: { access: { kind: 'page', pages: [...deskPages, stockPage] } }, schema: { tags, summary: "A holder's books out now (?usr_typ=Student|Employee&usr_cd=), with due dates and the limit" } },
    async (req) => {
      const ctx = mustCtx(req);
      const q = parse(holderQuerySchema, req.query, 'Choose the holder.');
      return holderBooks(db, ctx, await holderOf(db, ctx, q.usr_typ, q.usr_cd));
    },
  );

  app.get(
    '/api/bookcheckout/holders',
    { config: { access: { kind: 'page', pages: deskPages } }, schema: { tags, summary: 'Find a student (this year, his students only as on the page) or an employee of the institute by name or number' } },
    async (req): Promise<Holder[]> => {
      const ctx = mustCtx(req);
      const q = parse(holderSearchSchema, req.query, 'Invalid search.');
      if (q.usr_typ === 'Student') {
        if (ctx.acdmCd === null) throw badRequest('Choose an academic year first.');
        // The student list itself: its search, its year and 'his students only' apply unchanged.
        const found = await listRows(db, studentEntity, ctx, { q: q.q || undefined, page: 1, size: 20, filters: {} });
        return found.rows.map((s) => ({
          usr_typ: 'Student',
          usr_cd: Number(s.stud_cd),
          name: String(s.stud_fs_nm ?? ''),
          detail: [s.stud_adm_cd, [s.cls_nm, s.sec_nm].filter(Boolean).join(' ')].filter(Boolean).join(' - '),
        }));
      }
      const like = `%${q.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const found = await rows<{ usr_cd: number; usr_full_nm: string; desg_nm: string | null }>(
        db,
        sql`SELECT e.usr_cd, e.usr_full_nm, d.desg_nm FROM employee e LEFT JOIN designation d ON d.desg_cd = e.usr_desg
            WHERE (e.inst_cd = ${ctx.instCd}
                   OR EXISTS (SELECT 1 FROM user_institute m WHERE m.usr_cd = e.usr_cd AND m.inst_cd = ${ctx.instCd} AND m.usr_inst_sts))
              AND (lower(e.usr_full_nm) LIKE ${like} OR lower(e.usr_nm) LIKE ${like} OR lower(coalesce(e.usr_id, '')) LIKE ${like})
              AND (${!ctx.dataChk} OR e.usr_cd = ${ctx.user.usr_cd})
            ORDER BY e.usr_full_nm LIMIT 20`,
      );
      return found.map((e) => ({ usr_typ: 'Employee', usr_cd: Number(e.usr_cd), name: e.usr_full_nm, detail: e.desg_nm ?? '' }));
    },
  );

  app.get(
    '/api/bookcheckout/books',
    { config: { access: { kind: 'page', pages: deskPages } }, schema: { tags, summary: 'Find a book: ?barcode= exactly (any case; an empty list when none), or ?q= in its name or barcode' } },
    async (req): Promise<BookHit[]> => {
      const ctx = mustCtx(req);
      const q = parse(bookSearchSchema, req.query, 'Invalid search.');
      let found: { bk_cd: number; bk_nm: string; bk_barcd: string | null; bk_qty: number }[];
      if (q.barcode !== undefined) {
        if (q.barcode === '') throw badRequest('The barcode is empty.');
        found = await rows(db, sql`SELECT bk_cd, bk_nm, bk_barcd, bk_qty FROM book WHERE inst_cd = ${ctx.instCd} AND lower(bk_barcd) = lower(${q.barcode})`);
      } else {
        const like = `%${(q.q ?? '').toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        found = await rows(
          db,
          sql`SELECT bk_cd, bk_nm, bk_barcd, bk_qty FROM book
              WHERE inst_cd = ${ctx.instCd} AND (lower(bk_nm) LIKE ${like} OR lower(coalesce(bk_barcd, '')) LIKE ${like})
              ORDER BY bk_nm LIMIT 20`,
        );
      }
      const out = await copiesOut(db, ctx.instCd, found.map((b) => Number(b.bk_cd)));
      return found.map((b) => {
        const n = out.get(Number(b.bk_cd)) ?? 0;
        return { bk_cd: Number(b.bk_cd), bk_nm: b.bk_nm, bk_barcd: b.bk_barcd, bk_qty: Number(b.bk_qty), out: n, available: Math.max(0, Number(b.bk_qty) - n) };
      });
    },
  );
}
