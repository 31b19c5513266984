import { entity } from '@campus/entities/registry';
import { describe, expect, it } from 'vitest';
import { changedFields, createBody, formFields, formValuesToBody, linkPartners, rowToFormValues, withChange } from './form-values';
import { todayIso } from '../lib/validation';

const employee = entity('employee');
const row = {
  usr_cd: 7,
  usr_nm: 'RAVI',
  usr_full_nm: 'Ravi Kumar',
  usr_id: null,
  usr_typ: 2,
  rl_nm: 'Teacher',
  usr_desg: null,
  usr_gnd: 'Male',
  usr_ph: '98765 43210',
  usr_eml: null,
  usr_cur_adr: null,
  usr_is_lgn: false,
  row_ver: 3,
};

describe('formFields', () => {
  it('shows only writable fields on create and keeps immutable ones read-only on update', () => {
    const create = formFields(employee, 'create').map((f) => f.name);
    expect(create).not.toContain('usr_cd');
    expect(create).toContain('usr_pwd');
    const login = formFields(employee, 'update').find((f) => f.name === 'usr_nm');
    expect(login?.editable).toBe(false);
  });

  it('shows server-owned fields in view only, and never the password', () => {
    const view = formFields(entity('academic'), 'view').map((f) => f.name);
    expect(view).toContain('acdm_cd');
    expect(view).toContain('acdm_crt_dt');
    expect(formFields(entity('academic'), 'create').map((f) => f.name)).not.toContain('acdm_crt_dt');
    expect(formFields(employee, 'view').map((f) => f.name)).not.toContain('usr_pwd');
  });

  it('starts a create form from the declared defaults', () => {
    const v = rowToFormValues(formFields(entity('academic'), 'create'), null);
    expect(v).toMatchObject({ acdm_strt_yr: '', acdm_strt_mn: 'Jun', acdm_sts: true });
  });
});

describe('changedFields (update diff)', () => {
  const fields = formFields(employee, 'update');
  const initial = formValuesToBody(fields, rowToFormValues(fields, row)).body;

  it('is empty when nothing changed, including the untouched password', () => {
    const again = formValuesToBody(fields, rowToFormValues(fields, row)).body;
    expect(changedFields(initial, again)).toEqual({});
  });

  it('carries only edited fields, with links as numbers', () => {
    const values = { ...rowToFormValues(fields, row), usr_full_nm: 'Ravi K', usr_typ: '4' };
    expect(changedFields(initial, formValuesToBody(fields, values).body)).toEqual({ usr_full_nm: 'Ravi K', usr_typ: 4 });
  });

  it('sends a new password and clears an emptied optional field as null', () => {
    const values = { ...rowToFormValues(fields, row), usr_pwd: 'S3cret!pass', usr_ph: '' };
    expect(changedFields(initial, formValuesToBody(fields, values).body)).toEqual({ usr_pwd: 'S3cret!pass', usr_ph: null });
  });

  it('flags a toggled bool', () => {
    const values = { ...rowToFormValues(fields, row), usr_is_lgn: true };
    expect(changedFields(initial, formValuesToBody(fields, values).body)).toEqual({ usr_is_lgn: true });
  });
});

describe('formValuesToBody', () => {
  it('keeps money as a decimal string and drops empties on create', () => {
    const fields = [{ name: 'amt', field: { kind: 'money', label: 'Amount', max: 100 } as const, editable: true }];
    expect(formValuesToBody(fields, { amt: '12.50' }).body).toEqual({ amt: '12.50' });
    expect(createBody(formValuesToBody(fields, { amt: '' }).body)).toEqual({});
  });

  it('reports malformed JSON as a field error', () => {
    const fields = [{ name: 'raw', field: { kind: 'json', label: 'Raw' } as const, editable: true }];
    expect(formValuesToBody(fields, { raw: '{oops' }).errors).toEqual({ raw: "'Raw' is not valid JSON." });
    expect(formValuesToBody(fields, { raw: '{"a":1}' }).body).toEqual({ raw: { a: 1 } });
  });
});

describe('dependent links and dates (the student form)', () => {
  const student = entity('student');
  const fields = formFields(student, 'create');
  const sec = student.fields.sec_cd;

  it('empties the section when the class changes, and only then', () => {
    const start = { ...rowToFormValues(fields, null), cls_cd: '7', sec_cd: '31' };
    expect(withChange(fields, start, 'cls_cd', '8')).toMatchObject({ cls_cd: '8', sec_cd: null });
    expect(withChange(fields, start, 'cls_cd', '7')).toMatchObject({ cls_cd: '7', sec_cd: '31' });
    expect(withChange(fields, start, 'stud_fs_nm', 'Asha')).toMatchObject({ sec_cd: '31' });
  });

  it('waits for the class, then narrows the sections by it', () => {
    expect(linkPartners(fields, { ...rowToFormValues(fields, null) }, sec)).toEqual({ partners: {}, waitingFor: 'cls_cd' });
    expect(linkPartners(fields, { cls_cd: '7' }, sec)).toEqual({ partners: { cls_cd: '7' }, waitingFor: null });
    expect(linkPartners(fields, { cls_cd: '7' }, student.fields.cls_cd)).toEqual({ partners: {}, waitingFor: null });
  });

  it("starts the date of joining at today on create, and a typed date is read or refused by name", () => {
    expect(rowToFormValues(fields, null).stud_doj).toBe(todayIso());
    expect(formValuesToBody(fields, { ...rowToFormValues(fields, null), stud_doj: '25/03/2014' }).body.stud_doj).toBe('2014-03-25');
    expect(formValuesToBody(fields, { ...rowToFormValues(fields, null), stud_doj: '31/02/2014' }).errors).toEqual({
      stud_doj: "'Date of Joining' is not a valid date. Type it as 2014/Mar/25 or 25/03/2014.",
    });
  });
});
