import { describe, expect, it } from 'vitest';
import { code, defineEntity, hasRoute, link, money, text } from './define';
import { entities, viewLinkIssues } from './registry';

const base = {
  name: 'x_sum',
  table: 'x_sum_v',
  storage: 'view' as const,
  key: 'x_cd' as const,
  scope: 'institute' as const,
  label: 'X Summary',
  title: 'x_nm' as const,
  fields: { x_cd: code(), x_nm: text({ label: 'Name' }), x_amt: money({ label: 'Amount' }) },
};

describe('view entities (reports computed by the database)', () => {
  it('are read-only: list and get by default, and a write route is refused', () => {
    const v = defineEntity(base);
    expect(['list', 'get', 'create', 'update', 'delete', 'import'].filter((r) => hasRoute(v, r as 'list'))).toEqual(['list', 'get']);
    expect(() => defineEntity({ ...base, routes: ['list', 'create'] })).toThrow(/read-only, not create/);
    expect(() => defineEntity({ ...base, inlineEdit: ['x_amt'] })).toThrow(/view has no/);
    expect(() => defineEntity({ ...base, fields: { ...base.fields, x_nm: text({ label: 'Name', unique: true }) } })).toThrow(/no unique/);
  });

  it('cannot be the target of a link, and the registry has none that is', () => {
    const v = defineEntity(base);
    const linking = defineEntity({ ...base, name: 'x_row', table: 'x_row', storage: 'table', fields: { ...base.fields, x_sum_cd: link({ label: 'Sum', to: 'x_sum', display: 'x_nm', as: 'x_sum_nm' }) } });
    expect(viewLinkIssues([v, linking])).toEqual(['x_row.x_sum_cd: links to the view x_sum']);
    expect(viewLinkIssues(entities)).toEqual([]);
  });
});
