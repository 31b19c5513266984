import { entities, entity } from '@campus/entities/registry';
import { createInstance, type i18n } from 'i18next';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exactlyOneMessage, noSelectionMessage } from '../lib/validation';
import { entityLabel, type Translate } from './entity-labels';
import { gridLocaleKeys, gridLocaleText } from './grid-locale';
import { countText, selectionMessage } from './list-messages';

type Dict = { [k: string]: string | Dict };
const languageDir = join(import.meta.dirname, '../../public/assets/language/');
const files = ['english', 'english_clg', 'tamil', 'tamil_clg'] as const;
const loadFile = (name: string): Dict => JSON.parse(readFileSync(`${languageDir}${name}.json`, 'utf8')) as Dict;

async function fileInstance(name: string): Promise<i18n> {
  const i = createInstance();
  await i.init({ lng: name, fallbackLng: false, resources: { [name]: { translation: loadFile(name) } }, interpolation: { escapeValue: false } });
  return i;
}

/** t of a language whose file has not loaded (or lacks the key): i18next then returns the default. */
const unloaded: Translate = (_key, o) => o.defaultValue.replace(/\{\{(\w+)\}\}/g, (_m, v: string) => String(o[v]));

describe('selection messages (spec section 5)', () => {
  it.each(['english', 'english_clg'])('%s words them exactly as the spec for every entity', async (name) => {
    const i = await fileInstance(name);
    for (const e of entities) {
      // The {table name}: the declared label in english.json, in college words in english_clg.json.
      const table = entityLabel(i.t, e);
      if (name === 'english') expect(table).toBe(e.label);
      expect(selectionMessage(i.t, table, 0, 'some')).toBe(`Please select the ${table} records`);
      expect(selectionMessage(i.t, table, 0, 'one')).toBe(`Please select exactly one ${table} record`);
      expect(selectionMessage(i.t, table, 2, 'one')).toBe(`Please select exactly one ${table} record`);
      expect(selectionMessage(i.t, table, 1, 'one')).toBeNull();
      expect(selectionMessage(i.t, table, 3, 'some')).toBeNull();
    }
  });

  it('keeps the spec English when the language file is missing or lacks the key', () => {
    expect(selectionMessage(unloaded, 'Religion', 0, 'some')).toBe(noSelectionMessage('Religion'));
    expect(selectionMessage(unloaded, 'Religion', 2, 'one')).toBe(exactlyOneMessage('Religion'));
  });

  it.each(['tamil', 'tamil_clg'])('%s words them in Tamil with the Tamil table name', async (name) => {
    const i = await fileInstance(name);
    const table = entityLabel(i.t, entity('religion'));
    expect(selectionMessage(i.t, table, 0, 'some')).toBe('மதம் பதிவுகளைத் தேர்ந்தெடுக்கவும்');
    expect(selectionMessage(i.t, table, 2, 'one')).toBe('சரியாக ஒரு மதம் பதிவைத் தேர்ந்தெடுக்கவும்');
  });
});

describe('countText', () => {
  it('picks the single or the many wording by the count', async () => {
    const en = await fileInstance('english');
    const english = { single: '{{n}} {{table}} record deleted.', many: '{{n}} {{table}} records deleted.' };
    expect(countText(en.t, 'list.deleted', 1, english, { table: 'Religion' })).toBe('1 Religion record deleted.');
    expect(countText(en.t, 'list.deleted', 3, english, { table: 'Religion' })).toBe('3 Religion records deleted.');
    expect(countText(en.t, 'grid.row', 1200, { single: '{{n}} row', many: '{{n}} rows' }, { n: '1,200' })).toBe('1,200 rows');
    const ta = await fileInstance('tamil');
    expect(countText(ta.t, 'list.deleted', 3, english, { table: 'மதம்' })).toBe('3 மதம் பதிவுகள் நீக்கப்பட்டன.');
  });
});

describe('AG Grid localeText', () => {
  it('reads every grid text from all four files', async () => {
    for (const name of files) {
      const i = await fileInstance(name);
      for (const key of gridLocaleKeys) expect(i.exists(key), `${name}: ${key}`).toBe(true);
    }
  });

  it("keeps AG Grid's English overlay text (the browser tests look for it) and translates it in Tamil", async () => {
    expect(gridLocaleText((await fileInstance('english')).t).noRowsToShow).toBe('No Rows To Show');
    expect(gridLocaleText(unloaded).noRowsToShow).toBe('No Rows To Show');
    const ta = gridLocaleText((await fileInstance('tamil')).t);
    expect(ta.noRowsToShow).toBe('காட்ட பதிவுகள் இல்லை');
    expect(Object.values(ta).every((v) => /[\u0B80-\u0BFF]/.test(v))).toBe(true);
  });
});

/*
 * Every key the translated engine screens ask for, read from their source: a key missing from the files
 * would silently show the English default in every language. The English default written next to a key
 * must also be english.json's text, so English reads the same before and after the file has loaded.
 */
describe('keys used by the screens', () => {
  const screens = ['entity-list-page.tsx', 'entity-grid.tsx', 'import-page.tsx', 'list-dialogs.tsx', 'paging-bar.tsx'];
  // Every source file of the app (shell, engine, workflows), not only the engine's: a new screen is covered
  // the day it is written.
  const srcRoot = join(import.meta.dirname, '..');
  const sources = (readdirSync(srcRoot, { recursive: true }) as string[])
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.startsWith('test-support'))
    .map((f) => ({ file: f, text: readFileSync(join(srcRoot, f), 'utf8') }));
  const str = String.raw`'((?:[^'\\]|\\.)*)'`;
  const plain = new RegExp(String.raw`\bt\(\s*'([\w.]+)',\s*\{\s*defaultValue:\s*${str}`, 'g');
  const counted = new RegExp(String.raw`countText\(\s*t,\s*'([\w.]+)',[^{]*\{\s*single:\s*${str},\s*many:\s*${str}`, 'g');

  function used(): { key: string; english: string; file: string }[] {
    const found: { key: string; english: string; file: string }[] = [];
    for (const { file, text } of sources) {
      for (const m of text.matchAll(plain)) found.push({ file, key: m[1], english: m[2] });
      for (const m of text.matchAll(counted)) {
        found.push({ file, key: `${m[1]}_single`, english: m[2] });
        found.push({ file, key: `${m[1]}_many`, english: m[3] });
      }
    }
    return found;
  }

  it('finds the keys (the scan itself works)', () => {
    const keys = used().map((u) => u.key);
    expect(keys).toEqual(expect.arrayContaining(['btn.create', 'grid.page_of', 'list.delete_text_single', 'import.intro', 'grid.layout_saved']));
    expect(readdirSync(import.meta.dirname)).toEqual(expect.arrayContaining(screens));
  });

  it.each(files)('%s holds every key they use', async (name) => {
    const i = await fileInstance(name);
    const missing = used().filter((u) => !i.exists(u.key)).map((u) => `${u.file}: ${u.key}`);
    expect(missing).toEqual([]);
  });

  it("writes english.json's text as each key's default", async () => {
    const en = await fileInstance('english');
    const resource = (key: string): unknown => en.getResource('english', 'translation', key);
    const differing = used().filter((u) => resource(u.key) !== u.english).map((u) => `${u.file}: ${u.key}: '${u.english}' vs '${String(resource(u.key))}'`);
    expect(differing).toEqual([]);
  });
});
