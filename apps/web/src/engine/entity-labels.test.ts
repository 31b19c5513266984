import { entities, entity, findEntity } from '@campus/entities/registry';
import { pages } from '@campus/entities/pages';
import { createInstance, type i18n } from 'i18next';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  entityLabel,
  entityLabelKey,
  fieldLabel,
  fieldLabelKey,
  optionLabel,
  optionLabelKey,
  pageLabel,
  pageLabelKey,
  toggleLabel,
  toggleLabelKey,
  type Translate,
} from './entity-labels';
import { workflowButtonTexts, workflowOptionKey } from './workflow-buttons';

async function instance(resources: Record<string, unknown>): Promise<i18n> {
  const i = createInstance();
  await i.init({ lng: 'tamil', fallbackLng: false, resources: { tamil: { translation: resources } }, interpolation: { escapeValue: false } });
  return i;
}

const religion = entity('religion');
const employee = entity('employee');

describe('entity and field labels', () => {
  it('derives keys from the declaration', () => {
    expect(entityLabelKey(religion)).toBe('entity.religion.label');
    expect(fieldLabelKey(religion, 'rgn_nm')).toBe('field.religion.rgn_nm');
  });

  it('uses the translation when the key exists', async () => {
    const i = await instance({ entity: { religion: { label: 'மதம்' } }, field: { religion: { rgn_nm: 'மதத்தின் பெயர்' } } });
    expect(entityLabel(i.t, religion)).toBe('மதம்');
    expect(fieldLabel(i.t, religion, 'rgn_nm')).toBe('மதத்தின் பெயர்');
  });

  it('falls back to the declared English label, field by field, when a key is missing', async () => {
    const i = await instance({ field: { religion: { rgn_nm: 'மதத்தின் பெயர்' } } });
    expect(entityLabel(i.t, religion)).toBe('Religion');
    expect(fieldLabel(i.t, religion, 'rgn_nm')).toBe('மதத்தின் பெயர்');
    expect(fieldLabel(i.t, religion, 'rgn_desc')).toBe('Description');
    expect(entityLabel(i.t, employee)).toBe('Employee');
    expect(fieldLabel(i.t, employee, 'usr_full_nm')).toBe('Full Name');
  });

  it("never borrows another entity's label for a field name they share", async () => {
    // usr_cd is the employee's code but the mapping's employee link.
    const i = await instance({ field: { employee: { usr_cd: 'குறியீடு' } } });
    expect(fieldLabel(i.t, employee, 'usr_cd')).toBe('குறியீடு');
    expect(fieldLabel(i.t, entity('user_institute'), 'usr_cd')).toBe('Employee');
  });

  it('labels select options through option.<entity>.<field>.<value>, else the declared label, else the value', async () => {
    const institute = entity('institute');
    expect(optionLabelKey(institute, 'inst_typ', 'school')).toBe('option.institute.inst_typ.school');
    const i = await instance({ option: { institute: { inst_typ: { school: 'பள்ளி' } } } });
    expect(optionLabel(i.t, institute, 'inst_typ', 'school')).toBe('பள்ளி');
    expect(optionLabel(i.t, institute, 'inst_typ', 'college')).toBe('College');
    expect(optionLabel(i.t, employee, 'usr_gnd', 'Male')).toBe('Male');
    // Not an option of a declared select (an old row, a typo): shown as stored.
    expect(optionLabel(i.t, institute, 'inst_nm', 'school')).toBe('school');
    expect(optionLabel(i.t, institute, 'inst_typ', 'constructor')).toBe('constructor');
  });

  it('shows an undeclared field name as itself', () => {
    const echo: Translate = (_key, o) => o.defaultValue;
    expect(fieldLabel(echo, religion, 'rl_nm')).toBe('rl_nm');
  });

  it('labels pages and toggles through the menu and button keys', async () => {
    const i = await instance({ page: { master: { religion: 'மதம்' } }, btn: { allow_login: 'உள்நுழைய அனுமதி' } });
    const page = pages.find((p) => p.module === 'master' && p.page === 'religion');
    if (!page) throw new Error('religion page is not declared');
    expect(pageLabel(i.t, page)).toBe('மதம்');
    expect(pageLabel(i.t, { module: 'master', page: 'nope', label: 'Nope' })).toBe('Nope');
    const toggle = employee.toggles?.[0];
    if (!toggle) throw new Error('employee has no toggle');
    expect(toggleLabel(i.t, toggle)).toBe('உள்நுழைய அனுமதி');
    expect(toggleLabel(i.t, { button: 'nope', label: 'Nope', field: 'x' })).toBe('Nope');
  });
});

// ---- against the real language files ----

type Dict = { [k: string]: string | Dict };
const languageDir = join(import.meta.dirname, '../../public/assets/language/');
const languageFiles = ['english', 'english_clg', 'tamil', 'tamil_clg'] as const;
const loadFile = (name: string): Dict => JSON.parse(readFileSync(`${languageDir}${name}.json`, 'utf8')) as Dict;

async function fileInstance(name: string): Promise<i18n> {
  const i = createInstance();
  await i.init({ lng: name, fallbackLng: false, resources: { [name]: { translation: loadFile(name) } }, interpolation: { escapeValue: false } });
  return i;
}

const tamilScript = /[\u0B80-\u0BFF]/;

/*
 * An entity is translated whole or not at all: one with an entity.<name> block in english.json must have
 * every field in all four files; an entity nobody has translated yet shows its declared English (the
 * helper's fallback). These must stay translated.
 */
const mustTranslate = [
  'institute', 'language', 'religion', 'community', 'designation', 'role', 'leavetype', 'document_type', 'academic', 'employee',
  'user_institute', 'user_permission_group', 'user_permission', 'user_permission_mapping', 'login_history', 'action_history',
];
const englishEntities = loadFile('english').entity;
const translated = entities.filter((e) => typeof englishEntities === 'object' && Object.hasOwn(englishEntities, e.name));

describe('entity and field labels in the language files', () => {
  it('covers the masters, institute, employee, permission and history entities', () => {
    expect(translated.map((e) => e.name)).toEqual(expect.arrayContaining(mustTranslate));
  });

  /**
   * english_clg's vocabulary, as its term.* keys word it: a school's Class is a college's Course, its
   * Admission No a Register No, its Teacher Faculty, its Promotion a Year Promotion, and a bus reaches the
   * college. The institute type option 'School' names the type itself and stays.
   */
  const collegeWords = (label: string): string =>
    label
      .replace(/\bClasses\b/g, 'Courses')
      .replace(/\bClass\b/g, 'Course')
      .replace(/\bAdmission No\b/g, 'Register No')
      .replace(/\bTeacher\b/g, 'Faculty')
      .replace(/^Promotion$/, 'Year Promotion')
      .replace(/\bReached School\b/g, 'Reached College');

  it.each([
    ['english', (label: string) => label],
    ['english_clg', collegeWords],
  ] as const)('%s names every entity and field as declared (the spec messages quote them), in college words for colleges', async (name, expected) => {
    const i = await fileInstance(name);
    for (const e of translated) {
      expect(i.exists(entityLabelKey(e)), entityLabelKey(e)).toBe(true);
      expect(entityLabel(i.t, e)).toBe(expected(e.label));
      for (const [f, field] of Object.entries(e.fields)) {
        expect(i.exists(fieldLabelKey(e, f)), fieldLabelKey(e, f)).toBe(true);
        expect(fieldLabel(i.t, e, f), fieldLabelKey(e, f)).toBe(expected(field.label));
      }
    }
  });

  it('words classes as courses in both college files', async () => {
    const en = await fileInstance('english_clg');
    const ta = await fileInstance('tamil_clg');
    const taSchool = await fileInstance('tamil');
    expect(entityLabel(en.t, entity('class'))).toBe('Course');
    expect(fieldLabel(en.t, entity('section'), 'cls_cd')).toBe('Course');
    expect(entityLabel(ta.t, entity('class'))).toBe(ta.t('term.class'));
    expect(entityLabel(taSchool.t, entity('class'))).toBe(taSchool.t('term.class'));
    expect(entityLabel(ta.t, entity('class'))).not.toBe(entityLabel(taSchool.t, entity('class')));
  });

  it.each(['tamil', 'tamil_clg'])('%s translates every entity and field (none falls back to English)', async (name) => {
    const i = await fileInstance(name);
    const fellBack: string[] = [];
    for (const e of translated) {
      const label = entityLabel(i.t, e);
      if (label === e.label || !tamilScript.test(label)) fellBack.push(entityLabelKey(e));
      for (const [f, field] of Object.entries(e.fields)) {
        const l = fieldLabel(i.t, e, f);
        if (l === field.label || !tamilScript.test(l)) fellBack.push(fieldLabelKey(e, f));
      }
    }
    expect(fellBack).toEqual([]);
  });

  /** [entity, field name, select field] of every select of a translated entity. */
  const selects = translated.flatMap((e) =>
    Object.entries(e.fields).flatMap(([name, f]) => (f.kind === 'select' ? [{ entity: e, name, field: f }] : [])),
  );

  it('has select fields to check (institute type among them)', () => {
    expect(selects.map((s) => `${s.entity.name}.${s.name}`)).toEqual(expect.arrayContaining(['institute.inst_typ', 'document_type.doc_typ_for']));
  });

  it.each([
    ['english', (label: string) => label],
    ['english_clg', collegeWords],
  ] as const)('%s labels every option of a translated select with its English display label', async (name, expected) => {
    const i = await fileInstance(name);
    for (const { entity: e, name: f, field } of selects) {
      for (const o of field.options) {
        expect(i.exists(optionLabelKey(e, f, o)), `${name}: ${optionLabelKey(e, f, o)}`).toBe(true);
        expect(optionLabel(i.t, e, f, o), optionLabelKey(e, f, o)).toBe(expected(field.optionLabels?.[o] ?? o));
      }
    }
  });

  it.each(['tamil', 'tamil_clg'])('%s translates every option of a translated select (none falls back to English)', async (name) => {
    const i = await fileInstance(name);
    const fellBack: string[] = [];
    for (const { entity: e, name: f, field } of selects) {
      for (const o of field.options) {
        const l = optionLabel(i.t, e, f, o);
        if (!i.exists(optionLabelKey(e, f, o)) || l === o || l === field.optionLabels?.[o] || !tamilScript.test(l)) fellBack.push(optionLabelKey(e, f, o));
      }
    }
    expect(fellBack).toEqual([]);
  });

  it('has no option labels for selects or options that are not declared', () => {
    for (const name of languageFiles) {
      const block = loadFile(name).option;
      if (typeof block !== 'object') throw new Error(`${name}: option must be an object`);
      for (const [e, fields] of Object.entries(block)) {
        const declared = findEntity(e);
        expect(declared, `${name}: option.${e}`).toBeDefined();
        if (!declared || typeof fields === 'string') continue;
        for (const [f, values] of Object.entries(fields)) {
          const field = Object.hasOwn(declared.fields, f) ? declared.fields[f] : undefined;
          expect(field?.kind, `${name}: option.${e}.${f}`).toBe('select');
          if (field?.kind !== 'select' || typeof values === 'string') continue;
          for (const v of Object.keys(values)) expect(field.options, `${name}: option.${e}.${f}.${v}`).toContain(v);
        }
      }
    }
  });

  it('has no labels for entities or fields that are not declared (renamed fields leave stale keys)', () => {
    for (const name of languageFiles) {
      const dict = loadFile(name);
      const entityBlock = dict.entity;
      const fieldBlock = dict.field;
      if (typeof entityBlock === 'string' || typeof fieldBlock === 'string') throw new Error(`${name}: entity/field must be objects`);
      for (const e of Object.keys(entityBlock)) expect(findEntity(e), `${name}: entity.${e}`).toBeDefined();
      for (const [e, fields] of Object.entries(fieldBlock)) {
        const declared = findEntity(e);
        expect(declared, `${name}: field.${e}`).toBeDefined();
        if (!declared || typeof fields === 'string') continue;
        for (const f of Object.keys(fields)) expect(Object.hasOwn(declared.fields, f), `${name}: field.${e}.${f}`).toBe(true);
      }
    }
  });

  it('labels every toggle button and every entity page heading in all four files', async () => {
    for (const name of languageFiles) {
      const i = await fileInstance(name);
      for (const e of translated) for (const tg of e.toggles ?? []) expect(i.exists(toggleLabelKey(tg)), `${name}: ${toggleLabelKey(tg)}`).toBe(true);
      for (const p of pages.filter((pg) => pg.entity)) expect(i.exists(pageLabelKey(p)), `${name}: ${pageLabelKey(p)}`).toBe(true);
    }
  });
});

/*
 * A workflow button's dialog shows its select inputs' options too. An input named like a select field of its
 * entity offering that field's options reads the entity's option keys; any other input (no entity field) reads
 * workflow.<entity>.<button>.option.<input>.<value>. Either way every option shown has a key in all four files.
 */
describe('workflow dialog options in the language files', () => {
  const inputs = entities.flatMap((e) =>
    (e.workflowButtons ?? []).flatMap((b) =>
      Object.entries(b.inputs ?? {}).flatMap(([name, field]) => (field.kind === 'select' ? [{ entity: e, button: b, name, field }] : [])),
    ),
  );
  const ownField = (e: (typeof inputs)[number]['entity'], name: string, value: string): boolean => {
    const own = Object.hasOwn(e.fields, name) ? e.fields[name] : undefined;
    return own?.kind === 'select' && own.options.includes(value);
  };
  const keyFor = (x: (typeof inputs)[number], o: string): string =>
    ownField(x.entity, x.name, o) ? optionLabelKey(x.entity, x.name, o) : workflowOptionKey(x.entity, x.button, x.name, o);
  const collegeClass = (label: string): string => label.replace(/\bClass\b/g, 'Course');

  it('has select inputs to check (the circular e-mail and the parents message among them)', () => {
    expect(inputs.map((x) => `${x.entity.name}.${x.button.button}.${x.name}`)).toEqual(
      expect.arrayContaining(['circular.send_mail.recipients', 'mob_notification.send_to_parents.audience']),
    );
  });

  it.each([
    ['english', (l: string) => l],
    ['english_clg', collegeClass],
  ] as const)('%s labels every option of a dialog input with its English label', async (name, expected) => {
    const i = await fileInstance(name);
    for (const x of inputs) {
      const texts = workflowButtonTexts(i.t, x.entity, x.button, null);
      for (const o of x.field.options) {
        expect(i.exists(keyFor(x, o)), `${name}: ${keyFor(x, o)}`).toBe(true);
        if (!ownField(x.entity, x.name, o)) expect(texts.option(x.name, o), keyFor(x, o)).toBe(expected(x.field.optionLabels?.[o] ?? o));
      }
    }
  });

  it.each(['tamil', 'tamil_clg'])('%s shows every option of a dialog input in Tamil', async (name) => {
    const i = await fileInstance(name);
    const fellBack: string[] = [];
    for (const x of inputs) {
      const texts = workflowButtonTexts(i.t, x.entity, x.button, null);
      for (const o of x.field.options) if (!i.exists(keyFor(x, o)) || !tamilScript.test(texts.option(x.name, o))) fellBack.push(keyFor(x, o));
    }
    expect(fellBack).toEqual([]);
  });

  it('has no option keys for buttons, inputs or options that are not declared (or that the entity already labels)', () => {
    for (const name of languageFiles) {
      const block = loadFile(name).workflow;
      if (typeof block !== 'object') throw new Error(`${name}: workflow must be an object`);
      for (const [e, buttons] of Object.entries(block)) {
        if (typeof buttons !== 'object') continue;
        for (const [b, parts] of Object.entries(buttons)) {
          const options = typeof parts === 'object' ? parts.option : undefined;
          if (options === undefined) continue;
          if (typeof options !== 'object') throw new Error(`${name}: workflow.${e}.${b}.option must be an object`);
          for (const [input, values] of Object.entries(options)) {
            const x = inputs.find((y) => y.entity.name === e && y.button.button === b && y.name === input);
            expect(x, `${name}: workflow.${e}.${b}.option.${input} names no select input`).toBeDefined();
            if (!x || typeof values !== 'object') continue;
            for (const v of Object.keys(values)) {
              expect(x.field.options, `${name}: workflow.${e}.${b}.option.${input}.${v}`).toContain(v);
              expect(ownField(x.entity, input, v), `${name}: workflow.${e}.${b}.option.${input}.${v} is option.${e}.${input}.${v}`).toBe(false);
            }
          }
        }
      }
    }
  });
});
