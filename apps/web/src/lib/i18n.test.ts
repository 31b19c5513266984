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
