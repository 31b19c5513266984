import { rows, sql, type Tx } from '../../db/client';
import { conflict } from '../../lib/http-error';
import { settingValue } from '../setting/institute-setting';

export interface NumberPattern {
  /** The text before the number, with the year filled in ('SMS/2026/'). */
  prefix: string;
  /** The text after the number (usually empty). */
  suffix: string;
  /** Digits the number is padded to: the count of # in {#####}. */
  width: number;
}

const NUMBER_TOKEN = /\{(#+)\}/;

/**
 * The institute's pattern (setting ADMN_NO_PTRN) for a child joining in `joinYear`: {YYYY} is that year,
 * {YY} its last two digits, {#####} the running number. A pattern without a number part cannot make
 * distinct numbers, so it is refused rather than guessed at.
 */
export function parsePattern(pattern: string, joinYear: number): NumberPattern {
  const filled = pattern.replaceAll('{YYYY}', String(joinYear)).replaceAll('{YY}', String(joinYear % 100).padStart(2, '0'));
  const m = NUMBER_TOKEN.exec(filled);
  if (!m || NUMBER_TOKEN.test(filled.slice(m.index + m[0].length))) {
    throw conflict(`The admission number pattern '${pattern}' needs exactly one {#####} part for the running number. Correct the setting ADMN_NO_PTRN.`);
  }
  return { prefix: filled.slice(0, m.index), suffix: filled.slice(m.index + m[0].length), width: m[1].length };
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The next admission number of the pattern, inside the admitting transaction. Numbers of one institute and
 * prefix are handed out one after another under a transaction lock, so two admissions at once never get the
 * same number and none is skipped; the highest number already used by any student of the institute in any
 * year counts, so a new number never repeats an old child's (a repeat would make the new child look promoted).
 */
export async function nextAdmissionNumber(tx: Tx, instCd: number, joinYear: number): Promise<string> {
  const p = parsePattern(await settingValue(tx, instCd, 'ADMN_NO_PTRN'), joinYear);
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`admission-number:${instCd}:${p.prefix.toLowerCase()}`}, 0))`);
  const re = `^${escapeRegex(p.prefix.toLowerCase())}([0-9]{1,15})${escapeRegex(p.suffix.toLowerCase())}$`;
  const [{ n }] = await rows<{ n: string | null }>(
    tx,
    sql`SELECT max(substring(lower(stud_adm_cd) from ${re})::bigint)::text AS n FROM student
        WHERE inst_cd = ${instCd} AND lower(stud_adm_cd) ~ ${re}`,
  );
  const next = (n === null ? 0 : Number(n)) + 1;
  return `${p.prefix}${String(next).padStart(p.width, '0')}${p.suffix}`;
}
