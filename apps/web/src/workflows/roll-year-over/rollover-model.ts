/** The shapes the rollover routes answer (apps/server/src/workflows/roll-year-over) and the screen's own rules. */

export interface RolloverYear {
  acdm_cd: number;
  acdm_strt_yr: number;
  acdm_sts: boolean;
  label: string;
}

export interface RolloverChoices {
  years: RolloverYear[];
  frm_acdm_cd: number | null;
  to_acdm_cd: number | null;
  next_strt_yr: number | null;
}

export interface CopyableTableCount {
  table: string;
  label: string;
  rows: number;
  in_target: number;
  needs: string[];
  fee_amounts: boolean;
}

export interface TablePreview {
  table: string;
  label: string;
  rows: number;
  copy: number;
  skip: number;
  conflicts: string[];
  missing: { table: string; label: string; rows: string[] }[];
  amounts?: {
    fields: { field: string; label: string; before: string; after: string }[];
    examples: { title: string; before: string[]; after: string[] }[];
  };
}

export interface RolloverPreview {
  frm_acdm: string;
  to_acdm: string;
  fee_pct: number | null;
  tables: TablePreview[];
  copy: number;
  skip: number;
  blocked: string | null;
}

export interface RolloverResult {
  mgrtn_run_cd: number | null;
  migrations: { mgrtn_cd: number; mgrtn_tbl_cd: string; row_cnt: number; mgrtn_skip_cnt: number | null }[];
  tables: TablePreview[];
  copy: number;
  skip: number;
  message: string;
}

/** What the percentage box accepts while typing: an optional minus, up to 4 digits, up to 2 decimals. */
export const PCT_TYPING = /^-?\d{0,4}(\.\d{0,2})?$/;

/** The percentage to send: null for an empty box, undefined for one that is not a number yet ('-', '.'). */
export function pctValue(typed: string): number | null | undefined {
  const s = typed.trim();
  if (s === '') return null;
  if (!/^-?\d{1,4}(\.\d{1,2})?$/.test(s)) return undefined;
  const n = Number(s);
  return n < -100 || n > 1000 ? undefined : n;
}

/**
 * Ticking a table ticks what it needs when the source year has such rows (fee mappings need their fee
 * groups); unticking a table unticks what needs it. The server still refuses a run whose needs are unmet.
 */
export function toggleTable(selected: ReadonlySet<string>, table: string, on: boolean, tables: readonly CopyableTableCount[]): Set<string> {
  const out = new Set(selected);
  if (on) {
    out.add(table);
    for (const need of tables.find((t) => t.table === table)?.needs ?? []) {
      const t = tables.find((x) => x.table === need);
      if (t && t.rows > 0 && t.in_target === 0) out.add(need);
    }
  } else {
    out.delete(table);
    for (const t of tables) if (t.needs.includes(table)) out.delete(t.table);
  }
  return out;
}

/** The tables in the server's order (dependencies first), for the request. */
export const orderedSelection = (selected: ReadonlySet<string>, tables: readonly CopyableTableCount[]): string[] =>
  tables.filter((t) => selected.has(t.table)).map((t) => t.table);
