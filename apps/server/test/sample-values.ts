import { apiPath, apiUrl, writableFields, type AnyEntity, type Field, type LinkField } from '@campus/entities/define';
import { entity } from '@campus/entities/registry';
import type { FastifyInstance } from 'fastify';
import { call, type Session } from './test-server';

let counter = 0;
let freshNumbers = 0;
const uniq = (): string => `${Date.now().toString(36)}${(counter++).toString(36)}`.toUpperCase();

/** A valid value for a field, different on every call where the field must be unique. */
export async function sampleValue(app: FastifyInstance, s: Session, f: Field, fresh = false): Promise<unknown> {
  switch (f.kind) {
    case 'text': {
      const u = uniq();
      if (f.format === 'email') return `t${u.toLowerCase()}@school.example`;
      // Already in the stored form (define.ts normalisePhone), so a row reads back as it was sent.
      if (f.format === 'phone') return `+91 98${String(counter).padStart(8, '0').replace(/^(\d{3})/, '$1 ')}`;
      if (f.format === 'upper-code') return `T${u}`.slice(0, f.max);
      return `Test ${u}`.slice(0, f.max);
    }
    case 'number':
      // A number in a unique combination (an academic year's start year) counts down from the top of its
      // range, away from the seed's real values, instead of landing on them as the shared counter moves.
      if (fresh) return f.max - (freshNumbers++ % Math.max(1, Math.min(f.max - f.min + 1, 1000)));
      return f.min + ((counter++ * 7) % Math.max(1, Math.min(f.max - f.min, 1000)));
    case 'money':
      return '1234.50';
    case 'date':
      // A unique date (one staff attendance row per day) needs another day each time.
      return fresh ? new Date(Date.UTC(2026, 5, 15) + counter++ * 86_400_000).toISOString().slice(0, 10) : '2026-06-15';
    case 'time':
      return '09:30:00';
    case 'datetime':
      return '2026-06-15T09:30:00.000Z';
    case 'bool':
      return f.defaultValue;
    case 'select':
      if (f.defaultValue !== undefined) return f.defaultValue;
      // Two options as an array, in option order: the API stores them as the comma string String() gives.
      return f.multiple ? f.options.slice(0, 2) : f.options[0];
    case 'link':
      return linkTarget(app, s, entity(f.to), fresh);
    case 'password':
      return 'Sample-Pass-123';
    case 'json':
      return { sample: true };
    default:
      return undefined;
  }
}

/** An existing row of the target the user may pick, or a new one. */
export async function linkTarget(app: FastifyInstance, s: Session, target: AnyEntity, fresh = false): Promise<number> {
  const res = await call(app, s, 'GET', `${apiPath(target)}?size=1`);
  if (res.statusCode === 200 && !fresh) {
    const row = res.json<{ rows: Record<string, unknown>[] }>().rows[0];
    if (row) return Number(row[target.key]);
  }
  const created = await call(app, s, 'POST', apiPath(target), await sampleBody(app, s, target));
  if (created.statusCode !== 201) throw new Error(`cannot create ${target.name} for a link: ${created.body}`);
  return Number(created.json<Record<string, unknown>>()[target.key]);
}

export async function sampleBody(app: FastifyInstance, s: Session, e: AnyEntity): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  for (const [name, f] of writableFields(e)) {
    if (f.kind === 'image' || f.kind === 'file') continue;
    // A unique field, or a part of a unique combination, needs a value (a link: a target) of its own each time.
    const fresh = !!f.unique || (e.uniqueTogether ?? []).some((u) => u.fields.includes(name));
    body[name] = await sampleValue(app, s, f, fresh);
  }
  // A number that may not exceed its partner (a pass mark, its maximum) is held down to it.
  for (const [name, f] of writableFields(e)) {
    if (f.kind === 'number' && f.notAbove && Number(body[name]) > Number(body[f.notAbove])) body[name] = body[f.notAbove];
  }
  await agreeWithLinkedParents(app, s, e, body);
  Object.assign(body, definitionSamples[e.name] ?? {});
  return body;
}

/**
 * Rows whose fields are checked against ANOTHER entity's declaration (a custom report's columns and filters
 * must be fields of the entity it reports on): no field-by-field sample can know one, so a valid one is given.
 */
const definitionSamples: Readonly<Record<string, Record<string, unknown>>> = {
  custom_report: {
    cst_rpt_entity: 'religion',
    cst_rpt_cols: ['rgn_nm', 'rgn_desc'],
    cst_rpt_fltrs: [{ field: 'rgn_nm', value: 'Hindu' }],
    cst_rpt_sort: 'rgn_nm',
  },
  // A widget names an entity and fields the registry checks (workflows/dashboard/widget-spec.ts): a plain count.
  widget: { wdgt_typ: 'Count', wdgt_sub_typ: null, wdgt_ent: 'religion', wdgt_msr: null, wdgt_grp: null, wdgt_dt_fld: null, wdgt_dt_frm: null, wdgt_dt_to: null, wdgt_whr: null },
  // A backup's folder must lie inside BACKUP_ROOT and its 'Run At' fit its frequency (workflows/backup/backup.hooks.ts).
  backup: { bckp_path: 'engine-test', bckp_typ: 'Daily', bckp_typ_vl: '02:00' },
  // A notification rule is an entity query (engine/entity-query.ts), stored in its normal form.
  notification: {
    ntf_qry: { entity: 'religion', columns: ['rgn_nm'] },
    ntf_dt_fltr: null,
    ntf_qry_whr_clmn: [{ field: 'rgn_nm', op: 'eq', value: 'Hindu' }],
    ntf_qry_lmt_clmn: 20,
    ntf_qry_ord_clmn: [{ field: 'rgn_nm', dir: 'asc' }],
    ntf_qry_grp_clmn: null,
  },
};

/** Fields whose sample is one fixed valid value (above): an update that must change something leaves them alone. */
export const fixedSampleFields = (e: AnyEntity): ReadonlySet<string> => new Set(Object.keys(definitionSamples[e.name] ?? {}));

/**
 * A link whose target links on to a row this body also names (a student's section, and its class) must
 * agree with it, or the hook holding them together refuses the sample: the parent is taken from the child.
 */
async function agreeWithLinkedParents(app: FastifyInstance, s: Session, e: AnyEntity, body: Record<string, unknown>): Promise<void> {
  const mine = new Map(writableFields(e).filter(([, f]) => f.kind === 'link').map(([n, f]) => [n, f as LinkField]));
  for (const [name, f] of mine) {
    if (body[name] === null || body[name] === undefined) continue;
    const target = entity(f.to);
    const shared = Object.entries(target.fields).filter(([n, tf]) => n !== name && tf.kind === 'link' && mine.get(n)?.to === tf.to);
    if (shared.length === 0) continue;
    const res = await call(app, s, 'GET', apiUrl(target, Number(body[name])));
    if (res.statusCode !== 200) throw new Error(`cannot read ${target.name} ${String(body[name])}: ${res.body}`);
    const row = res.json<Record<string, unknown>>();
    for (const [n] of shared) if (row[n] !== null && row[n] !== undefined) body[n] = row[n];
  }
}
