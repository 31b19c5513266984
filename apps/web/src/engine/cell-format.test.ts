import { describe, expect, it } from 'vitest';
import { formatCell, yesNoWords } from './cell-format';
import type { Translate } from './entity-labels';

describe('formatCell booleans', () => {
  it('shows Yes/No in English by default', () => {
    expect(formatCell('bool', true)).toBe('Yes');
    expect(formatCell('bool', 0)).toBe('No');
    expect(formatCell('bool', null)).toBe('');
  });

  it("uses the language file's common.yes / common.no", () => {
    const tamil: Record<string, string> = { 'common.yes': 'ஆம்', 'common.no': 'இல்லை' };
    const t: Translate = (key, o) => tamil[key] ?? o.defaultValue;
    expect(formatCell('bool', '1', yesNoWords(t))).toBe('ஆம்');
    expect(formatCell('bool', false, yesNoWords(t))).toBe('இல்லை');
    const missing: Translate = (_key, o) => o.defaultValue;
    expect(yesNoWords(missing)).toEqual({ yes: 'Yes', no: 'No' });
  });
});
