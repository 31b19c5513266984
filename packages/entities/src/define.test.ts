import { describe, expect, it } from 'vitest';
import { apiUrl, bodySchema, requiredMessage } from './define';
import { entity } from './registry';

describe('body schema from a declaration', () => {
  const religion = entity('religion');
  it('refuses a create without the required name, in the spec wording', () => {
    const r = bodySchema(religion, 'create').safeParse({ rgn_desc: 'x' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].message).toBe("Please enter the 'Religion Name'.");
  });
  it('accepts a patch without the required field, but not one that empties it', () => {
    expect(bodySchema(religion, 'update').safeParse({ rgn_desc: 'x' }).success).toBe(true);
    expect(bodySchema(religion, 'update').safeParse({ rgn_nm: '  ' }).success).toBe(false);
  });
  it('refuses unknown fields and server-only fields', () => {
    expect(bodySchema(religion, 'create').safeParse({ rgn_nm: 'A', rgn_cd: 5 }).success).toBe(false);
    expect(bodySchema(religion, 'create').safeParse({ rgn_nm: 'A', inst_cd: 2 }).success).toBe(false);
  });
  it('keeps money exact as a decimal string with at most 2 decimals', () => {
    const s = bodySchema(
      { ...religion, fields: { ...religion.fields, amt: { kind: 'money', label: 'Amount', max: 1e9 } } },
      'create',
    );
    expect(s.safeParse({ rgn_nm: 'A', amt: '1200.50' }).data?.amt).toBe('1200.50');
    expect(s.safeParse({ rgn_nm: 'A', amt: '12.345' }).success).toBe(false);
  });
  it('words the required message by field kind, with the spec fallbacks', () => {
    expect(requiredMessage({ kind: 'select', label: '' })).toBe("Please select the 'Dropdown'.");
    expect(requiredMessage({ kind: 'text', label: '' })).toBe("Please enter the 'Input value'.");
    expect(requiredMessage({ kind: 'date', label: '' })).toBe("Please fill the 'Field'.");
    expect(requiredMessage({ kind: 'link', label: 'Role' })).toBe("Please select the 'Role'.");
  });
  it('joins API paths with exactly one slash', () => {
    expect(apiUrl(religion, 5)).toBe('/api/religion/5');
    expect(apiUrl(entity('login_history'), 5)).toBe('/api/login_history/loginhistory/5');
  });
});
