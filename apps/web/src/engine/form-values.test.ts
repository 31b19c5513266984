import { entity } from '@campus/entities/registry';
import { describe, expect, it } from 'vitest';
import { changedFields, createBody, formFields, formValuesToBody, rowToFormValues } from './form-values';

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
