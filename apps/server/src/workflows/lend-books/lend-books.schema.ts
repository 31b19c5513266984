import { z } from 'zod';

export const holderTypes = ['Student', 'Employee'] as const;
export type HolderType = (typeof holderTypes)[number];

const holderType = z.enum(holderTypes, { error: "'User Type' must be Student or Employee." });
const holderCode = z.coerce.number({ error: "Please select the 'User'." }).int("Please select the 'User'.").positive("Please select the 'User'.").max(2_147_483_647, "Please select the 'User'.");

const bookLine = z
  .object({
    bk_cd: z.coerce.number({ error: "'Book' is not a valid choice." }).int().positive("'Book' is not a valid choice.").max(2_147_483_647, "'Book' is not a valid choice.").optional(),
    // As the scanner typed it; matched without regard to case, like the field's upper-code format.
    bk_barcd: z.string().trim().min(1, 'The barcode is empty.').max(50, 'A barcode has at most 50 characters.').optional(),
    qty: z.coerce.number({ error: 'The quantity must be a whole number from 1.' }).int('The quantity must be a whole number from 1.').min(1, 'The quantity must be a whole number from 1.').max(1000, 'At most 1000 copies at once.'),
  })
  .refine((l) => l.bk_cd !== undefined || l.bk_barcd !== undefined, 'Each book needs its code or its barcode.');

const books = z.array(bookLine, { error: 'Add at least one book.' }).min(1, 'Add at least one book.').max(50, 'At most 50 books at once.');

export const issueBooksSchema = z.object({
  usr_typ: holderType,
  usr_cd: holderCode,
  books,
  due_dt: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "'Due Date' must be a date (YYYY-MM-DD).")
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), "'Due Date' must be a date (YYYY-MM-DD).")
    .nullish(),
  // A UUID made by the desk once per attempt.
  idempotency_key: z.string().trim().min(8, 'The issue key is missing. Reload the page and try again.').max(64, 'The issue key is too long.'),
});

export const returnBooksSchema = z.object({
  usr_typ: holderType,
  usr_cd: holderCode,
  books,
  // Optional, so a scanner script that never retries need not make one; the desk sends one per attempt.
  idempotency_key: z.string().trim().min(8, 'The return key is too short. Reload the page and try again.').max(64, 'The return key is too long.').optional(),
});

export const holderQuerySchema = z.object({ usr_typ: holderType, usr_cd: holderCode });

export const holderSearchSchema = z.object({ usr_typ: holderType, q: z.string().trim().max(100).default('') });

export const bookSearchSchema = z.object({
  barcode: z.string().trim().max(50, 'A barcode has at most 50 characters.').optional(),
  q: z.string().trim().max(100).optional(),
});

export type IssueBooksInput = z.infer<typeof issueBooksSchema>;
export type ReturnBooksInput = z.infer<typeof returnBooksSchema>;
export type BookLineInput = z.infer<typeof bookLine>;
