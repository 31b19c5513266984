import { describe, expect, it } from 'vitest';
import { entity } from '@campus/entities/registry';
import { entityUrl, listQuery } from './entity-api';
import { modePath, parseMode } from './entity-mode';

describe('parseMode', () => {
  it('accepts the spec modes', () => {
    expect(parseMode('table')).toEqual({ kind: 'table', search: false });
    expect(parseMode('table/search')).toEqual({ kind: 'table', search: true });
    expect(parseMode('create')).toEqual({ kind: 'create' });
    expect(parseMode('import')).toEqual({ kind: 'import' });
    expect(parseMode('update/12')).toEqual({ kind: 'update', id: '12' });
    expect(parseMode('view/3/')).toEqual({ kind: 'view', id: '3' });
    expect(parseMode('clone/9')).toEqual({ kind: 'clone', id: '9' });
  });

  it('refuses anything else', () => {
    for (const bad of ['', 'tables', 'update', 'update/abc', 'update/0', 'update/1/2', 'create/1', 'table/x', undefined]) {
      expect(parseMode(bad)).toBeNull();
    }
  });

  it('builds mode paths', () => {
    expect(modePath('master', 'religion', 'update', 5)).toBe('/sms/master/religion/update/5');
    expect(modePath('master', 'religion', 'table')).toBe('/sms/master/religion/table');
  });
});

describe('entityUrl', () => {
  it('puts exactly one slash between the api base and the suffix', () => {
    expect(entityUrl(entity('religion'))).toBe('/api/religion/');
    expect(entityUrl(entity('religion'), 4)).toBe('/api/religion/4');
    expect(entityUrl(entity('religion'), 'options')).toBe('/api/religion/options');
    expect(entityUrl(entity('action_history'), 4)).toBe('/api/action_history/actionhistory/4');
  });

  it('leaves out an empty search and a direction without sort', () => {
    expect(listQuery({ q: '  ', sort: undefined, dir: 'asc', page: 1, size: 50 })).toEqual({ q: undefined, sort: undefined, dir: undefined, page: 1, size: 50 });
  });
});
