import { fieldButtons, isView, type AnyEntity, type Field, type LinkField } from '@campus/entities/define';
import { entities, entity } from '@campus/entities/registry';

/**
 * What a year rollover may copy, declared once: the year-scoped masters an office sets up afresh every year.
 * Everything else (which fields are copied, which links point at another copied table, the order) is read
 * from the entity declarations, so a field added to a fee group is copied without touching this file.
 */
export interface CopyableTableSpec {
  /** Registry name of a year-scoped entity. */
  entity: string;
  /**
   * The fields that say 'this row is already in the target year' (a fee group of that name). Must be one of
   * the declaration's unique rules, so the database's unique index backs the 'never duplicated' promise.
   * A link to another copied table compares through its copy (the fee mapping's new year's fee group).
   */
  naturalKey: readonly string[];
  /** Date fields moved by the years' difference (Term 1 opens 1 June 2025 -> 1 June 2026). */
  shiftDates?: readonly string[];
  /** Money fields changed by the run's fee percentage, rounded to whole rupees. */
  feeAmounts?: readonly string[];
}

export const copyableTableSpecs: readonly CopyableTableSpec[] = [
  { entity: 'fee_group', naturalKey: ['fee_grp_nm'], shiftDates: ['fee_grp_fee_str_dt', 'fee_grp_fee_exp_dt'] },
  { entity: 'fee', naturalKey: ['fee_grp_cd', 'feetyp_cd', 'cls_cd'], feeAmounts: ['fee_amt', 'fee_amt_aftr_prmtn'] },
  { entity: 'subject_detail', naturalKey: ['sec_cd', 'sub_cd'] },
  { entity: 'section_timetable', naturalKey: ['sec_cd'] },
  { entity: 'holiday', naturalKey: ['hly_nm'], shiftDates: ['hly_frm_dt', 'hly_to_dt'] },
  { entity: 'exam_type', naturalKey: ['exmtyp_nm'] },
];

export interface CopyableTable extends Required<CopyableTableSpec> {
  def: AnyEntity;
  /** Link fields pointing at another copied (year-scoped) table: remapped to that table's copy. */
  remapped: { field: string; to: string }[];
  /** Fields a copy takes from its source row (the key, server-stamped and read-only fields are the copy's own). */
  copied: string[];
  /**
   * Fields governed by a toggle or a take-action button (an exam round's status): the copy starts at the
   * value a new row gets, since last year's 'Published' is not this year's.
   */
  restarted: string[];
}

const linkOf = (f: Field): LinkField | null => (f.kind === 'link' ? f : null);

function matchesUniqueRule(e: AnyEntity, key: readonly string[]): boolean {
  const same = (a: readonly string[]) => a.length === key.length && a.every((n) => key.includes(n));
  if (key.length === 1 && e.fields[key[0]]?.unique === true) return true;
  return (e.uniqueTogether ?? []).some((u) => same(u.fields));
}

/**
 * The specs checked against the declarations and completed from them, in registry order (a link's target
 * comes first, so a fee group is copied before the fee mappings that point at it). Throws at load on a
 * spec the declarations do not support: a typo fails every start and every test.
 */
export function resolveCopyableTables(specs: readonly CopyableTableSpec[]): CopyableTable[] {
  const names = new Set(specs.map((s) => s.entity));
  const problems: string[] = [];
  const out: CopyableTable[] = [];
  for (const s of specs) {
    const def = entity(s.entity);
    if (def.scope !== 'academic-year' || isView(def)) problems.push(`${s.entity}: not a year-scoped table`);
    if (!matchesUniqueRule(def, s.naturalKey)) problems.push(`${s.entity}: natural key ${s.naturalKey.join(', ')} is not one of its unique rules`);
    for (const n of s.shiftDates ?? []) if (def.fields[n]?.kind !== 'date') problems.push(`${s.entity}.${n}: not a date field`);
    for (const n of s.feeAmounts ?? []) if (def.fields[n]?.kind !== 'money') problems.push(`${s.entity}.${n}: not a money field`);
    const restarted = fieldButtons(def).map((b) => b.field);
    const remapped: CopyableTable['remapped'] = [];
    const copied: string[] = [];
    for (const [name, f] of Object.entries(def.fields)) {
      if (name === def.key || f.kind === 'code' || f.readOnly || f.auto || restarted.includes(name)) continue;
      // Files belong to one row (an upload is claimed once); a copy sharing it would lose it on either's delete.
      if (f.kind === 'file' || f.kind === 'image' || f.kind === 'password') problems.push(`${s.entity}.${name}: a ${f.kind} cannot be copied`);
      copied.push(name);
      const l = linkOf(f);
      if (!l || entity(l.to).scope !== 'academic-year') continue;
      // A link into another year-scoped table must land on that table's row of the target year.
      if (!names.has(l.to)) problems.push(`${s.entity}.${name}: links to ${l.to}, which is not copyable`);
      remapped.push({ field: name, to: l.to });
    }
    out.push({ shiftDates: [], feeAmounts: [], ...s, def, remapped, copied, restarted });
  }
  if (problems.length) throw new Error(`Year rollover: ${problems.join('; ')}`);
  const order = new Map(entities.map((e, i) => [e.name, i]));
  return out.sort((a, b) => (order.get(a.entity) ?? 0) - (order.get(b.entity) ?? 0));
}

export const copyableTables: readonly CopyableTable[] = resolveCopyableTables(copyableTableSpecs);

export const copyableTable = (name: string): CopyableTable | undefined => copyableTables.find((t) => t.entity === name);

/** Tables that must be in the target year before `t` is copied (a fee mapping needs its fee group). */
export const dependenciesOf = (t: CopyableTable): string[] => [...new Set(t.remapped.map((r) => r.to))];

/** Tables whose copies point at `t`'s copies: rolled back first. */
export const dependentsOf = (name: string): string[] => copyableTables.filter((t) => t.remapped.some((r) => r.to === name)).map((t) => t.entity);
