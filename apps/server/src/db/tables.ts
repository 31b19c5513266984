import { messagingTables } from '../workflows/messaging/messaging.tables';
import { backupTables } from '../workflows/backup/backup.tables';
import { isView, uniqueTogetherFoldsCase, type AnyEntity, type Field } from '@campus/entities/define';
import { entities } from '@campus/entities/registry';
import { sql, type SQL } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  time,
  timestamp,
  uniqueIndex,
  varchar,
  type AnyPgColumn,
  type ExtraConfigColumn,
  type PgColumn,
  type PgColumnBuilderBase,
  type PgTable,
} from 'drizzle-orm/pg-core';

/**
 * Tables derived from the entity declarations. Besides its declared fields every entity table gets:
 * inst_cd / acdm_cd for its scope, row_ver for optimistic locking, and who/when columns for the audit.
 */

export interface EntityTable {
  entity: AnyEntity;
  table: PgTable;
  /** Every column by name: declared fields and system columns. */
  cols: Record<string, PgColumn>;
}

export const systemColumns = ['inst_cd', 'acdm_cd', 'row_ver', 'crt_by', 'crt_dt', 'updt_by', 'updt_dt'] as const;

const built = new Map<string, EntityTable>();

function keyColumn(name: string): PgColumn {
  const target = built.get(name);
  if (!target) throw new Error(`link to ${name}: declare it earlier in the registry`);
  return target.cols[target.entity.key];
}

function columnFor(name: string, f: Field, e: AnyEntity): PgColumnBuilderBase {
  switch (f.kind) {
    case 'code':
      return integer(name).primaryKey().generatedByDefaultAsIdentity();
    case 'text':
      return f.required ? varchar(name, { length: f.max }).notNull() : varchar(name, { length: f.max });
    case 'number':
      if (f.int) return f.required ? integer(name).notNull() : integer(name);
      return numeric(name, { precision: 14, scale: 2 });
    case 'money':
      return f.required
        ? numeric(name, { precision: 14, scale: 2 }).notNull()
        : numeric(name, { precision: 14, scale: 2 });
    case 'date':
      return date(name, { mode: 'string' });
    case 'time':
      return time(name);
    case 'datetime':
      return timestamp(name, { withTimezone: true, mode: 'string' });
    case 'bool':
      return boolean(name).notNull().default(f.defaultValue);
    case 'select':
      return f.required ? varchar(name, { length: 60 }).notNull() : varchar(name, { length: 60 });
    case 'link': {
      const col = integer(name).references((): AnyPgColumn => keyColumn(f.to));
      return f.required ? col.notNull() : col;
    }
    case 'image':
    case 'file':
      return varchar(name, { length: 200 });
    case 'json':
      return jsonb(name);
    case 'password':
      return varchar(name, { length: 200 });
  }
  throw new Error(`${e.name}.${name}: unknown field kind`);
}

const scopeCols = (e: AnyEntity): string[] =>
  e.scope === 'institute' ? ['inst_cd'] : e.scope === 'academic-year' ? ['inst_cd', 'acdm_cd'] : [];

/**
 * Searchable columns stored on the row itself that make up its one trigram search expression (links are
 * searched through their target's name, exact codes through their own btree index).
 */
export const textSearchFields = (e: AnyEntity): string[] =>
  Object.entries(e.fields)
    .filter(([, f]) => f.search && ((f.kind === 'text' && !f.exactCode) || f.kind === 'select'))
    .map(([n]) => n);

/** Searchable identifiers (admission numbers, barcodes): equality or prefix on `codeExpression`. */
export const exactCodeFields = (e: AnyEntity): string[] =>
  Object.entries(e.fields)
    .filter(([, f]) => f.search && f.kind === 'text' && f.exactCode)
    .map(([n]) => n);

/**
 * What an exact code is compared as, case folded ('sms/2025/01698' finds 'SMS/2025/01698'). Its index uses
 * text_pattern_ops, whose byte-order operators (~>=~, ~<~) give a prefix range that holds in any collation
 * and with a bound parameter, where LIKE 'x%' needs the pattern at planning time.
 */
export function codeExpression(col: PgColumn | ExtraConfigColumn): SQL {
  return sql`lower(${col})`;
}

/**
 * One lower-cased text of all searchable columns, so that a quick search is one trigram index lookup
 * instead of an OR over several columns (which the planner answers with a sequential scan). The list query
 * must build exactly this expression for the index to be used.
 */
export function searchExpression(cols: (PgColumn | ExtraConfigColumn)[]): SQL {
  return sql`lower(${sql.join(cols.map((col) => sql`coalesce(${col}, '')`), sql` || ' ' || `)})`;
}

type IndexPart = ExtraConfigColumn | SQL;
const atLeastOne = (parts: IndexPart[]): [IndexPart, ...IndexPart[]] => parts as [IndexPart, ...IndexPart[]];

function buildEntityTable(e: AnyEntity): EntityTable {
  const cols: Record<string, PgColumnBuilderBase> = {};
  for (const [name, f] of Object.entries(e.fields)) cols[name] = columnFor(name, f, e);
  if (e.scope === 'institute' || e.scope === 'academic-year') {
    cols.inst_cd = integer('inst_cd')
      .notNull()
      .references((): AnyPgColumn => keyColumn('institute'));
  }
  if (e.scope === 'academic-year') {
    cols.acdm_cd = integer('acdm_cd')
      .notNull()
      .references((): AnyPgColumn => keyColumn('academic'));
  }
  cols.row_ver = integer('row_ver').notNull().default(1);
  // A view is queried like a table but created by its own SELECT (db/views): no audit columns, no indexes.
  if (isView(e)) return finish(e, pgTable(e.table, cols), cols);
  cols.crt_by = integer('crt_by');
  cols.crt_dt = timestamp('crt_dt', { withTimezone: true, mode: 'string' }).notNull().defaultNow();
  cols.updt_by = integer('updt_by');
  cols.updt_dt = timestamp('updt_dt', { withTimezone: true, mode: 'string' });

  const table = pgTable(e.table, cols, (t) => {
    const c = t as unknown as Record<string, ExtraConfigColumn>;
    const scoped = scopeCols(e).map((s) => c[s]);
    const out = [];
    if (scoped.length) out.push(index(`${e.table}_scope_idx`).on(scoped[0], ...scoped.slice(1)));
    for (const [name, f] of Object.entries(e.fields)) {
      if (f.unique) {
        const byScope = f.unique === 'global' ? [] : scoped;
        const target = f.kind === 'text' ? sql`lower(${c[name]})` : c[name];
        out.push(uniqueIndex(`${e.table}_${name}_uq`).on(...atLeastOne([...byScope, target])));
      }
      if (f.kind === 'link') out.push(index(`${e.table}_${name}_idx`).on(c[name]));
    }
    const searchCols = textSearchFields(e);
    if (searchCols.length) {
      out.push(index(`${e.table}_search_trgm`).using('gin', sql`(${searchExpression(searchCols.map((n) => c[n]))}) gin_trgm_ops`));
    }
    for (const [i, u] of (e.uniqueTogether ?? []).entries()) {
      // Typed text lower-cased, as for single unique text fields: 'A' and 'a' are the same section name.
      const fs = u.fields.map((n) => (uniqueTogetherFoldsCase(e, n) ? sql`lower(${c[n]})` : c[n]));
      out.push(uniqueIndex(`${e.table}_uq${i + 1}`).on(...atLeastOne([...scoped, ...fs])));
    }
    for (const name of exactCodeFields(e)) {
      out.push(index(`${e.table}_${name}_code`).on(...atLeastOne([...scoped, sql`${codeExpression(c[name])} text_pattern_ops`])));
    }
    // The list's default order as the engine writes it (orderBy: the sort field, then the key), behind the
    // scope columns: a page is the first rows of one index range, and the next page its continuation.
    const sortBy = e.defaultSort && e.defaultSort.field !== e.key ? [c[e.defaultSort.field]] : [];
    if (scoped.length || sortBy.length) out.push(index(`${e.table}_sort_idx`).on(...atLeastOne([...scoped, ...sortBy, c[e.key]])));
    return out;
  });
  return finish(e, table, cols);
}

function finish(e: AnyEntity, table: PgTable, cols: Record<string, PgColumnBuilderBase>): EntityTable {
  const all = table as unknown as Record<string, PgColumn>;
  const colMap: Record<string, PgColumn> = {};
  for (const name of Object.keys(cols)) colMap[name] = all[name];
  return { entity: e, table, cols: colMap };
}

for (const e of entities) built.set(e.name, buildEntityTable(e));

export function entityTable(name: string): EntityTable {
  const t = built.get(name);
  if (!t) throw new Error(`No table for entity ${name}`);
  return t;
}

export const entityTables = (): EntityTable[] => [...built.values()];

// ---- system tables: not entities, never reachable through the generic API ----

/** Sign-in sessions. Only a hash of the token is stored, so a database leak does not leak sessions. */
export const session = pgTable(
  'session',
  {
    sess_cd: integer('sess_cd').primaryKey().generatedByDefaultAsIdentity(),
    sess_token_hash: varchar('sess_token_hash', { length: 64 }).notNull(),
    usr_cd: integer('usr_cd')
      .notNull()
      .references((): AnyPgColumn => keyColumn('employee')),
    sess_crt_at: timestamp('sess_crt_at', { withTimezone: true }).notNull().defaultNow(),
    sess_seen_at: timestamp('sess_seen_at', { withTimezone: true }).notNull().defaultNow(),
    sess_expires_at: timestamp('sess_expires_at', { withTimezone: true }).notNull(),
    sess_revoked_at: timestamp('sess_revoked_at', { withTimezone: true }),
    sess_ip: varchar('sess_ip', { length: 60 }),
    sess_pfm: varchar('sess_pfm', { length: 60 }),
    /** A readable label of the browser's User-Agent ('Chrome on Windows'), shown in 'Signed-in devices'. */
    sess_dev: varchar('sess_dev', { length: 80 }),
  },
  (t) => [uniqueIndex('session_token_uq').on(t.sess_token_hash), index('session_usr_idx').on(t.usr_cd)],
);

/**
 * Sign-in failure counters (access/auth.routes.ts): one row per login id, per login id and address, per
 * address and per known device, each with the time it accepts another try (a wait that grows with its
 * failures, never a hard lock). atmpt_cd names a row on the Sign-in Locks page.
 */
export const loginAttempt = pgTable('login_attempt', {
  atmpt_key: varchar('atmpt_key', { length: 200 }).primaryKey(),
  atmpt_cd: integer('atmpt_cd').notNull().generatedByDefaultAsIdentity(),
  atmpt_kind: varchar('atmpt_kind', { length: 30 }).notNull().default('Login Id'),
  atmpt_usr_nm: varchar('atmpt_usr_nm', { length: 60 }),
  atmpt_ip: varchar('atmpt_ip', { length: 60 }),
  atmpt_fail_cnt: integer('atmpt_fail_cnt').notNull().default(0),
  atmpt_first_at: timestamp('atmpt_first_at', { withTimezone: true }).notNull().defaultNow(),
  atmpt_last_at: timestamp('atmpt_last_at', { withTimezone: true }).notNull().defaultNow(),
  atmpt_next_at: timestamp('atmpt_next_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Browsers a user has signed in from (the device cookie, stored as a SHA-256 hash like session tokens): the
 * right password from one of them is accepted whatever others have tried against the login id. One browser
 * may be known for several users (a shared office computer).
 */
export const loginDevice = pgTable(
  'login_device',
  {
    dev_cd: integer('dev_cd').primaryKey().generatedByDefaultAsIdentity(),
    dev_token_hash: varchar('dev_token_hash', { length: 64 }).notNull(),
    usr_cd: integer('usr_cd').notNull(),
    dev_crt_at: timestamp('dev_crt_at', { withTimezone: true }).notNull().defaultNow(),
    dev_seen_at: timestamp('dev_seen_at', { withTimezone: true }).notNull().defaultNow(),
    dev_ip: varchar('dev_ip', { length: 60 }),
    dev_pfm: varchar('dev_pfm', { length: 60 }),
  },
  (t) => [uniqueIndex('login_device_uq').on(t.dev_token_hash, t.usr_cd), index('login_device_usr_idx').on(t.usr_cd)],
);

/**
 * Rows each user has read in bulk this hour (access/read-budget.ts): list answers add the rows they return.
 * Crossing the budget sets rdb_blocked_at until an administrator lifts it. One row per user, across
 * institutes and app instances; no foreign key, like the sign-in counters.
 */
export const readBudget = pgTable('read_budget', {
  usr_cd: integer('usr_cd').primaryKey(),
  rdb_window_at: timestamp('rdb_window_at', { withTimezone: true }).notNull().defaultNow(),
  rdb_rows: integer('rdb_rows').notNull().default(0),
  rdb_blocked_at: timestamp('rdb_blocked_at', { withTimezone: true }),
  rdb_blocked_rows: integer('rdb_blocked_rows'),
});

/**
 * Second factor (TOTP, RFC 6238; access/mfa.ts), one row per user who has one or is required to. The secret
 * is stored encrypted (AES-256-GCM, key from MFA_KEY or the data folder's mfa.key); mfa_enrolled_at is null
 * while an enrolment waits for its first code. mfa_last_step is the last accepted 30 s time step: a code is
 * accepted once (replay refused). mfa_required: an administrator asks it of a non-administrator (admins
 * always need it). mfa_grace_until: set at the first sign-in at which the factor was required and missing
 * (MFA_GRACE_DAYS later); past it the password alone no longer signs in, the sign-in makes the user set it up.
 * No foreign key, like the sign-in counters.
 */
export const mfaFactor = pgTable('mfa_factor', {
  usr_cd: integer('usr_cd').primaryKey(),
  mfa_secret_enc: varchar('mfa_secret_enc', { length: 200 }),
  mfa_enrolled_at: timestamp('mfa_enrolled_at', { withTimezone: true }),
  mfa_last_step: integer('mfa_last_step'),
  mfa_required: boolean('mfa_required').notNull().default(false),
  mfa_grace_until: timestamp('mfa_grace_until', { withTimezone: true }),
  mfa_upd_at: timestamp('mfa_upd_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Recovery codes of a second factor, SHA-256 hashed (128 random bits each), each usable once. */
export const mfaRecoveryCode = pgTable(
  'mfa_recovery_code',
  {
    rc_cd: integer('rc_cd').primaryKey().generatedByDefaultAsIdentity(),
    usr_cd: integer('usr_cd').notNull(),
    rc_hash: varchar('rc_hash', { length: 64 }).notNull(),
    rc_used_at: timestamp('rc_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('mfa_recovery_code_uq').on(t.usr_cd, t.rc_hash)],
);

/** Browsers where a user ticked 'Remember this device' after a code: no code asked there until it expires. */
export const mfaDevice = pgTable(
  'mfa_device',
  {
    md_cd: integer('md_cd').primaryKey().generatedByDefaultAsIdentity(),
    usr_cd: integer('usr_cd').notNull(),
    md_token_hash: varchar('md_token_hash', { length: 64 }).notNull(),
    md_expires_at: timestamp('md_expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('mfa_device_uq').on(t.md_token_hash, t.usr_cd)],
);

/**
 * Uploaded files (POST /api/fileupload/). The bytes live on disk under upld_stored_nm; this row says whose
 * they are and for which entity field, so a write can accept only its own user's fresh upload (upld_id is
 * the file_id the client sends). A write claims it (upld_row_cd); replacing or deleting releases it, and
 * the sweep removes released, orphaned and never-claimed files (workflows/file-upload). No foreign keys on
 * the owner and institute: a record of who uploaded must not block deleting them.
 */
export const upload = pgTable(
  'upload',
  {
    upld_cd: integer('upld_cd').primaryKey().generatedByDefaultAsIdentity(),
    upld_id: varchar('upld_id', { length: 40 }).notNull(),
    upld_stored_nm: varchar('upld_stored_nm', { length: 64 }).notNull(),
    upld_orig_nm: varchar('upld_orig_nm', { length: 200 }).notNull(),
    upld_mime: varchar('upld_mime', { length: 60 }).notNull(),
    upld_size: integer('upld_size').notNull(),
    usr_cd: integer('usr_cd').notNull(),
    inst_cd: integer('inst_cd').notNull(),
    upld_entity: varchar('upld_entity', { length: 60 }).notNull(),
    upld_field: varchar('upld_field', { length: 60 }).notNull(),
    upld_row_cd: integer('upld_row_cd'),
    upld_crt_at: timestamp('upld_crt_at', { withTimezone: true }).notNull().defaultNow(),
    upld_released_at: timestamp('upld_released_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('upload_id_uq').on(t.upld_id),
    uniqueIndex('upload_stored_nm_uq').on(t.upld_stored_nm),
    index('upload_row_idx').on(t.upld_entity, t.upld_field, t.upld_row_cd),
  ],
);

/** Everything drizzle-kit needs to diff the schema, by export name. */
export function schemaForMigrations(): Record<string, unknown> {
  const out: Record<string, unknown> = { session, loginAttempt, loginDevice, readBudget, upload, mfaFactor, mfaRecoveryCode, mfaDevice, ...messagingTables, ...backupTables };
  for (const t of built.values()) if (!isView(t.entity)) out[t.entity.name] = t.table;
  return out;
}
