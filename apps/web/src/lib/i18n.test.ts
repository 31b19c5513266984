import { menuGroups, pages } from '@campus/entities/pages';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { languageFileName, languageFileUrl, localeOf } from './i18n';

type Dict = { [k: string]: string | Dict };

// import.meta.url is an http URL under jsdom; dirname is the real folder.
const dir = join(import.meta.dirname, '../../public/assets/language/');
const load = (name: string): Dict => JSON.parse(readFileSync(`${dir}${name}.json`, 'utf8')) as Dict;
const files = ['english', 'english_clg', 'tamil', 'tamil_clg'] as const;

function lookup(dict: Dict, key: string): string | undefined {
  let node: string | Dict | undefined = dict;
  for (const part of key.split('.')) {
    if (!node || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

function keysOf(dict: Dict, prefix = ''): string[] {
  return Object.entries(dict).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : keysOf(v, `${prefix}${k}.`)));
}

const commonKeys = [
  'btn.create', 'btn.edit', 'btn.delete', 'btn.view', 'btn.clone', 'btn.export', 'btn.import', 'btn.save', 'btn.update',
  'btn.cancel', 'btn.search', 'btn.refresh', 'btn.update_state', 'btn.reset_state', 'btn.sign_in', 'btn.sign_out',
  'common.institute', 'common.academic_year', 'grid.no_rows', 'form.required',
];

describe('language files', () => {
  it.each(files)('%s has every menu group, page and common label', (name) => {
    const dict = load(name);
    for (const g of menuGroups) expect(lookup(dict, `menu.${g.module}`), `menu.${g.module}`).toBeTruthy();
    for (const p of pages) expect(lookup(dict, `page.${p.module}.${p.page}`), `page.${p.module}.${p.page}`).toBeTruthy();
    for (const k of commonKeys) expect(lookup(dict, k), k).toBeTruthy();
  });

  it('all files have the same keys', () => {
    const english = keysOf(load('english')).sort();
    for (const name of files) expect(keysOf(load(name)).sort()).toEqual(english);
  });

  it.each(files)('%s nests option labels as option.<entity>.<field>.<value> (what entity-labels looks up)', (name) => {
    const option = load(name).option;
    expect(typeof option, 'option').toBe('object');
    if (typeof option !== 'object') return;
    const keys = keysOf(option);
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) expect(k.split('.'), `option.${k}`).toHaveLength(3);
    // Institute type is stored lower case; every file must word it for people.
    expect(lookup(load(name), 'option.institute.inst_typ.school'), name).not.toBe('school');
  });

  it('keeps the spec wording of the English menu', () => {
    const en = load('english');
    expect(lookup(en, 'menu.user_permission')).toBe('User Persmissions');
    expect(lookup(en, 'btn.update_state')).toBe('Update State');
    expect(lookup(en, 'btn.reset_state')).toBe('Reset State');
  });

  it('uses college words in the _clg variants', () => {
    expect(lookup(load('english_clg'), 'term.class')).toBe('Course');
    expect(lookup(load('english_clg'), 'term.principal')).toBe('Dean');
    expect(lookup(load('english_clg'), 'term.student')).toBe('Student');
    expect(lookup(load('english_clg'), 'page.class_section.class')).not.toBe(lookup(load('english'), 'page.class_section.class'));
    expect(lookup(load('tamil_clg'), 'term.class')).not.toBe(lookup(load('tamil'), 'term.class'));
  });

  it('translates the Tamil menu and buttons into Tamil script', () => {
    const ta = load('tamil');
    const tamilScript = /[\u0B80-\u0BFF]/;
    for (const g of menuGroups) expect(lookup(ta, `menu.${g.module}`)).toMatch(tamilScript);
    for (const p of pages) expect(lookup(ta, `page.${p.module}.${p.page}`)).toMatch(tamilScript);
    for (const k of commonKeys) expect(lookup(ta, k), k).toMatch(tamilScript);
  });
});

/** Values the Tamil files keep as in English: product and language names, and spec texts that are a contract. */
const SAME_IN_TAMIL = new Set([
  'app.name',
  'common.english',
  'common.tamil',
  // Spec section 5 required-field and section 8 error texts: kept in the spec's English in every file.
  'login.username_required',
  'login.password_required',
  'errors.generic',
  // The mark sheet's absent mark: 'AB' is what Tamil-medium mark registers print too, and a Tamil word would
  // widen every subject column of a printed sheet.
  'print.marks.absent_short',
]);

const placeholders = (s: string): string[] => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('language file contents', () => {
  it.each(files)('%s has no empty value', (name) => {
    const dict = load(name);
    for (const k of keysOf(dict)) expect(lookup(dict, k)?.trim(), k).toBeTruthy();
  });

  it.each([
    ['tamil', 'english'],
    ['tamil_clg', 'english_clg'],
  ] as const)('%s translates every value of %s into Tamil script', (tamil, english) => {
    const ta = load(tamil);
    const en = load(english);
    const tamilScript = /[\u0B80-\u0BFF]/;
    const untranslated = keysOf(en).filter((k) => !SAME_IN_TAMIL.has(k) && (lookup(ta, k) === lookup(en, k) || !tamilScript.test(lookup(ta, k) ?? '')));
    expect(untranslated).toEqual([]);
  });

  it('keeps the allowlist small and honest: allowlisted values really are the same', () => {
    for (const k of SAME_IN_TAMIL) expect(lookup(load('tamil'), k), k).toBe(lookup(load('english'), k));
  });

  it.each(files)('%s interpolates the same values as english.json', (name) => {
    const en = load('english');
    const dict = load(name);
    for (const k of keysOf(en)) expect(placeholders(lookup(dict, k) ?? ''), k).toEqual(placeholders(lookup(en, k) ?? ''));
  });

  it('never interpolates {{count}}: the file names are not locale tags, so i18next plurals would misfire', () => {
    // Each file parsed once: re-reading it per key grew slow enough to time out once option labels came.
    for (const name of files) {
      const dict = load(name);
      for (const k of keysOf(dict)) expect(lookup(dict, k), k).not.toMatch(/\{\{\s*count\s*\}\}/);
    }
  });
});

describe('language helpers', () => {
  it('picks the college variant by institute type', () => {
    expect(languageFileName('english', 'school')).toBe('english');
    expect(languageFileName('tamil', 'college')).toBe('tamil_clg');
    expect(languageFileName('english', undefined)).toBe('english');
  });

  it('maps files to locales and URLs', () => {
    expect(localeOf('tamil_clg')).toBe('ta');
    expect(localeOf('english')).toBe('en');
    expect(localeOf('klingon')).toBe('en');
    expect(languageFileUrl('english_clg')).toBe('/assets/language/english_clg.json');
  });
});
