import { describe, expect, it } from 'vitest';
import { CELL_EXTRA, columnWidth, HEADER_EXTRA, layoutFor, MIN_COLUMN_WIDTH, parseSavedLayout, type MeasureText } from './column-layout';

describe('saved column layout', () => {
  it('reads arrays and JSON strings, dropping sort', () => {
    const state = [{ colId: 'rgn_nm', width: 180, hide: false, sort: 'asc', sortIndex: 0 }, { colId: 'rgn_cd', hide: true }];
    expect(parseSavedLayout(state)).toEqual([{ colId: 'rgn_nm', width: 180, hide: false }, { colId: 'rgn_cd', hide: true }]);
    expect(parseSavedLayout(JSON.stringify(state))).toEqual(parseSavedLayout(state));
  });

  it('ignores anything that is not column state', () => {
    expect(parseSavedLayout(null)).toBeNull();
    expect(parseSavedLayout('{oops')).toBeNull();
    expect(parseSavedLayout({ colId: 'x' })).toBeNull();
    expect(parseSavedLayout([{ width: 3 }])).toBeNull();
  });

  it('picks the layout of the named table', () => {
    const settings = [
      { tbl_setg_tbl_nm: 'role', tbl_setg_obj: [{ colId: 'rl_nm' }] },
      { tbl_setg_tbl_nm: 'religion', tbl_setg_obj: [{ colId: 'rgn_nm', width: 200 }] },
    ];
    expect(layoutFor(settings, 'religion')).toEqual([{ colId: 'rgn_nm', width: 200 }]);
    expect(layoutFor(settings, 'community')).toBeNull();
  });
});

describe('column width', () => {
  // 7 px a letter in a cell, 8 in a (bold) heading: round figures, the rule is what is tested.
  const measure: MeasureText = (text, where) => text.length * (where === 'header' ? 8 : 7);

  it("never goes under the spec's 100 px", () => {
    expect(MIN_COLUMN_WIDTH).toBe(100);
    expect(columnWidth('text', 'Class', ['VI', 'UKG'], measure)).toBe(100);
    expect(columnWidth('money', 'Paid', [], measure)).toBe(100);
  });

  it('gives a long heading all its letters, even with no rows', () => {
    // 'Admission No' is 12 letters: 96 px of text and the sort arrow and padding beside it.
    expect(columnWidth('text', 'Admission No', [], measure)).toBe(12 * 8 + HEADER_EXTRA);
    expect(columnWidth('text', 'Admission No', [], measure)).toBeGreaterThan(100);
  });

  it('grows to the widest value on the page', () => {
    const names = ['Divya Reddy', 'Tamilarasi Chandrasekaran', ''];
    expect(columnWidth('link', 'Student', names, measure)).toBe(25 * 7 + CELL_EXTRA);
    expect(columnWidth('money', 'Total Amount', ['6,100.00', '1,00,00,000.00'], measure)).toBe(Math.max(12 * 8 + HEADER_EXTRA, 14 * 7 + CELL_EXTRA));
  });

  it("caps a long value by its kind so one reason cannot push every other column off screen, but never cuts the heading", () => {
    const reason = 'Parent asked for the bill to be cancelled because the fee was paid twice at the counter.';
    expect(columnWidth('text', 'Reason', [reason], measure)).toBe(300);
    expect(columnWidth('date', 'Cancelled Date', ['2026/Oct/19'.repeat(5)], measure)).toBe(200);
    const longHeading = 'மாணவரின் சேர்க்கை எண் மற்றும் வகுப்பு';
    expect(columnWidth('select', longHeading, [], measure)).toBe(longHeading.length * 8 + HEADER_EXTRA);
  });
});
