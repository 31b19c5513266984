import type { SelectField } from '@campus/entities/define';
import { entity } from '@campus/entities/registry';
import { describe, expect, it } from 'vitest';
import type { Translate } from '../../engine/entity-labels';
import {
  columnChoices,
  definitionBody,
  definitionOf,
  filterChoices,
  filterFormValue,
  filterText,
  moveColumn,
  pageToRunUnder,
  reportableFor,
  reportListParams,
  reportRun,
  retarget,
  runHeaders,
  type ReportDefinition,
} from './report-definition';

const english: Translate = (_key, o) => o.defaultValue;
const student = entity('student');

const def = (over: Partial<ReportDefinition> = {}): ReportDefinition => ({
  entity: 'student',
  columns: ['stud_fs_nm', 'cls_cd', 'stud_ph'],
  filters: [
    { field: 'cls_cd', value: '7' },
    { field: 'stud_gnd', value: 'Female' },
  ],
  search: 'kumar',
  sort: 'stud_fs_nm',
  dir: 'desc',
  ...over,
});

describe('a report definition as the list call', () => {
  it('sends the saved filters as f_<field>, with the search, sort and page', () => {
    expect(reportListParams(def(), student, 2, 100)).toEqual({
      q: 'kumar',
      sort: 'stud_fs_nm',
      dir: 'desc',
      page: 2,
      size: 100,
      f_cls_cd: '7',
      f_stud_gnd: 'Female',
    });
  });

  it("falls back to the entity's declared sort and sends no search when none is saved", () => {
    const q = reportListParams(def({ search: '', sort: null, filters: [] }), student);
    expect(q).toEqual({ q: undefined, sort: student.defaultSort?.field, dir: student.defaultSort?.dir, page: 1, size: 50 });
  });

  it('leaves out, and names, fields the entity no longer declares, so an old report still runs', () => {
    const old = def({ columns: ['stud_fs_nm', 'stud_blood_grp'], filters: [{ field: 'stud_house', value: 'Red' }], sort: 'stud_age' });
    const run = reportRun(old, student);
    expect(run.skipped).toEqual(['stud_blood_grp', 'stud_house', 'stud_age']);
    expect(run.list.columns).toEqual(['stud_fs_nm']);
    expect(run.list.fixedFilters).toEqual({});
    expect(run.list.initialSort).toBeUndefined();
    expect(reportListParams(old, student)).not.toHaveProperty('f_stud_house');
  });

  it('reads a stored row, and anything malformed as nothing chosen', () => {
    expect(
      definitionOf({ cst_rpt_entity: 'student', cst_rpt_cols: ['stud_fs_nm', 3], cst_rpt_fltrs: [{ field: 'cls_cd', value: 7 }, 'junk', { field: 'x' }], cst_rpt_q: null, cst_rpt_sort: '', cst_rpt_dir: 'sideways' }),
    ).toEqual({ entity: 'student', columns: ['stud_fs_nm'], filters: [{ field: 'cls_cd', value: '7' }], search: '', sort: null, dir: 'asc' });
    expect(definitionOf({ cst_rpt_cols: { sample: true }, cst_rpt_fltrs: 'cls_cd=7' })).toMatchObject({ entity: '', columns: [], filters: [] });
  });

  it('writes the body the server checks: blank filters dropped, no direction without a sort', () => {
    const body = definitionBody(def({ filters: [{ field: 'cls_cd', value: '7' }, { field: 'stud_ph', value: ' ' }, { field: '', value: 'x' }], sort: null, search: '  ' }));
    expect(body).toEqual({ cst_rpt_entity: 'student', cst_rpt_cols: ['stud_fs_nm', 'cls_cd', 'stud_ph'], cst_rpt_fltrs: [{ field: 'cls_cd', value: '7' }], cst_rpt_q: null, cst_rpt_sort: null, cst_rpt_dir: null });
  });
});

describe("the editor's field lists", () => {
  it("offers the entity's fields with their labels, never a password or JSON field", () => {
    const employee = entity('employee');
    const choices = columnChoices(english, employee);
    expect(choices.map((c) => c.value)).not.toContain('usr_pwd');
    expect(choices.find((c) => c.value === 'usr_full_nm')?.label).toBe(employee.fields.usr_full_nm.label);
    const notification = entity('notification');
    expect(columnChoices(english, notification).map((c) => c.value)).not.toContain('ntf_qry');
    // Declaration order: the order the entity's own form shows them.
    expect(columnChoices(english, student).slice(0, 2).map((c) => c.value)).toEqual(Object.keys(student.fields).slice(0, 2));
  });

  it('labels fields in the language on screen', () => {
    const tamil: Translate = (key, o) => (key === 'field.student.stud_fs_nm' ? 'மாணவர் பெயர்' : o.defaultValue);
    expect(columnChoices(tamil, student).find((c) => c.value === 'stud_fs_nm')?.label).toBe('மாணவர் பெயர்');
  });

  it('filters on what can be typed or picked, not on a photo', () => {
    const fields = filterChoices(english, student).map((c) => c.value);
    expect(fields).toContain('cls_cd');
    expect(fields).not.toContain('stud_photo');
    expect(columnChoices(english, student).map((c) => c.value)).toContain('stud_photo');
  });

  it('moves a column up or down, never off either end', () => {
    expect(moveColumn(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveColumn(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveColumn(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveColumn(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });

  it('keeps only what the newly chosen entity has', () => {
    const moved = retarget(def({ columns: ['stud_fs_nm', 'cls_cd'], filters: [{ field: 'cls_cd', value: '7' }, { field: 'stud_gnd', value: 'Male' }], sort: 'stud_fs_nm' }), entity('section'));
    expect(moved).toMatchObject({ entity: 'section', columns: ['cls_cd'], filters: [{ field: 'cls_cd', value: '7' }], sort: null });
  });

  it('holds a filter value in the input as the field kind needs and sends it as text', () => {
    expect(filterFormValue(entity('employee').fields.usr_is_lgn, 'true')).toBe(true);
    expect(filterText(false)).toBe('false');
    expect(filterText(12)).toBe('12');
    expect(filterFormValue(student.fields.stud_gnd, '')).toBeNull();
  });
});

describe('where a report runs', () => {
  it("runs under the first of the entity's pages the user may open, naming it in the headers", () => {
    const pg = pageToRunUnder('student', new Set(['student/profile', 'reports/custom_report']));
    expect(pg).toMatchObject({ module: 'student', page: 'profile' });
    expect(runHeaders(pg!)).toEqual({ pagename: 'profile', modulename: 'student' });
    expect(pageToRunUnder('student', new Set(['reports/custom_report']))).toBeUndefined();
  });

  it('offers only entities of pages the user holds', () => {
    const options = (entity('custom_report').fields.cst_rpt_entity as SelectField).options;
    expect(options).toContain('student');
    expect(options).not.toContain('custom_report');
    expect(options).not.toContain('user_permission');
    const names = reportableFor(options, new Set(['student/profile', 'budget/income_expense'])).map((e) => e.name);
    expect(names.sort()).toEqual(['expense', 'student']);
  });
});
