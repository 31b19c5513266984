/**
 * Lists the label keys the declarations imply (entity, field, select option, page, menu group, grid
 * buttons and their workflow dialogs) that a language file lacks. The web falls back to the declared
 * English label, so a missing key breaks nothing visibly in English: this is how a Tamil gap is found.
 *   npm run i18n:check            missing keys per file, exit code 1 when any
 *   npm run i18n:check -- --json  every expected key with its declared English label
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fieldButtons } from '../packages/entities/src/define';
import { menuGroups, pages, pagesOfEntity } from '../packages/entities/src/pages';
import { entities } from '../packages/entities/src/registry';

type Dict = { [k: string]: string | Dict };

// Same rule as the web's optionLabel: an option with '.' or ':' is never looked up, so it needs no key.
const KEY_SAFE = /^[^.:]+$/;

export function expectedKeys(): Map<string, string> {
  const keys = new Map<string, string>();
  for (const g of menuGroups) keys.set(`menu.${g.module}`, g.title);
  for (const p of pages) {
    keys.set(`page.${p.module}.${p.page}`, p.label);
    if (p.viewLabel) keys.set(`view_label.${p.module}.${p.page}`, p.viewLabel);
    if (p.menuEntry) keys.set(`menu_entry.${p.module}.${p.page}`, p.menuEntry.label);
  }
  // An entity no page shows (a user's notifications, schedule entries, notification mappings: their own screens
  // word them with their own keys) puts no label of its declaration on screen.
  for (const e of entities.filter((x) => pagesOfEntity(x.name).length > 0)) {
    keys.set(`entity.${e.name}.label`, e.label);
    for (const [name, f] of Object.entries(e.fields)) {
      keys.set(`field.${e.name}.${name}`, f.label);
      if (f.kind !== 'select') continue;
      for (const o of f.options.filter((v) => KEY_SAFE.test(v))) keys.set(`option.${e.name}.${name}.${o}`, f.optionLabels?.[o] ?? o);
    }
    for (const b of [...fieldButtons(e), ...(e.workflowButtons ?? []), ...(e.documents ?? [])]) if (!keys.has(`btn.${b.button}`)) keys.set(`btn.${b.button}`, b.label);
    // The texts the grid's workflow dialog looks up (apps/web/src/engine/workflow-buttons.ts).
    for (const b of e.workflowButtons ?? []) {
      keys.set(`workflow.${e.name}.${b.button}.confirm`, b.confirm);
      if (b.reason) keys.set(`workflow.${e.name}.${b.button}.reason`, b.reason.label);
      if (b.done) keys.set(`workflow.${e.name}.${b.button}.done`, b.done);
      for (const [name, f] of Object.entries(b.inputs ?? {})) keys.set(`workflow.${e.name}.${b.button}.input.${name}`, f.label);
    }
  }
  return keys;
}

function has(dict: Dict, key: string): boolean {
  let node: string | Dict | undefined = dict;
  for (const part of key.split('.')) node = node && typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' && node.trim() !== '';
}

const files = ['english', 'english_clg', 'tamil', 'tamil_clg'] as const;
const dir = fileURLToPath(new URL('../apps/web/public/assets/language/', import.meta.url));

const keys = expectedKeys();
if (process.argv.includes('--json')) {
  console.log(JSON.stringify(Object.fromEntries(keys), null, 2));
} else {
  let missing = 0;
  for (const name of files) {
    const dict = JSON.parse(readFileSync(`${dir}${name}.json`, 'utf8')) as Dict;
    const gaps = [...keys.keys()].filter((k) => !has(dict, k));
    missing += gaps.length;
    console.log(`${name}.json: ${gaps.length} missing`);
    for (const k of gaps) console.log(`  ${k}  (${keys.get(k)})`);
  }
  process.exitCode = missing > 0 ? 1 : 0;
}
