import { rows, sql, type DbOrTx } from '../../db/client';

/**
 * Institute settings the workflows read (setting rows by setg_unq_cd). Each has a default, so a school that
 * never set one still works; the codes and their meaning are listed in docs/decisions.md.
 */
export const settingDefaults = {
  // The admission number of an admitted application: {YYYY} the year of joining, {#####} the next number.
  ADMN_NO_PTRN: 'ADM/{YYYY}/{#####}',
  // Books a holder may have out at once, and how many days an issue lasts.
  LIB_MAX_BOOKS_STUDENT: '3',
  LIB_MAX_BOOKS_EMPLOYEE: '10',
  LIB_LOAN_DAYS: '14',
  // Rows one user may read through lists in an hour before bulk reading is blocked (access/read-budget.ts).
  READ_BUDGET_ROWS_HOUR: '20000',
  // The payment gateway's HMAC-SHA256 secret for its notifications; no webhook is accepted while it is empty.
  PAY_WEBHOOK_SECRET: '',
} as const;

export type SettingCode = keyof typeof settingDefaults;

/** Settings nobody reads back through the settings API: a secret is written, never shown. */
export const secretSettings: readonly SettingCode[] = ['PAY_WEBHOOK_SECRET'];

export async function settingValue(db: DbOrTx, instCd: number, code: SettingCode): Promise<string> {
  const [s] = await rows<{ v: string | null }>(db, sql`SELECT setg_val AS v FROM setting WHERE inst_cd = ${instCd} AND setg_unq_cd = ${code}`);
  const v = s?.v?.trim();
  return v ? v : settingDefaults[code];
}

/** A whole-number setting; a value that is not a positive whole number falls back to the default. */
export async function settingNumber(db: DbOrTx, instCd: number, code: SettingCode): Promise<number> {
  const v = Number(await settingValue(db, instCd, code));
  return Number.isInteger(v) && v > 0 ? v : Number(settingDefaults[code]);
}
