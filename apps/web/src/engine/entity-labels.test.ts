import { entity } from '@campus/entities/registry';
import { pages } from '@campus/entities/pages';
import { createInstance, type i18n } from 'i18next';
import { describe, expect, it } from 'vitest';
import { entityLabel, entityLabelKey, fieldLabel, fieldLabelKey, pageLabel, toggleLabel, type Translate } from './entity-labels';

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
