import { describe, expect, it } from 'vitest';
import { CELL_EXTRA, columnWidth, fitToRoom, HEADER_EXTRA, layoutFor, LONG_TEXT_FLOOR, MIN_COLUMN_WIDTH, parseSavedLayout, type MeasureText } from './column-layout';

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

describe('fitting the shown columns to the room', () => {
  const total = (m: Map<string, number>): number => [...m.values()].reduce((a, b) => a + b, 0);

  it('shares spare room out in proportion, leaving record codes as they are, and ends at the edge', () => {
    const got = fitToRoom(
      [
        { colId: 'cd', kind: 'code', width: 100 },
        { colId: 'nm', kind: 'text', width: 200 },
        { colId: 'amt', kind: 'money', width: 100 },
      ],
      700,
    );
    expect(got.get('cd')).toBe(100);
    expect(got.get('nm')).toBe(400);
    expect(got.get('amt')).toBe(200);
    expect(total(got)).toBe(700);
  });

  it('short of room, a long reason gives back what is missing so the columns after it stay in view', () => {
    const shown = [
      { colId: 'bill', kind: 'link', width: 100 },
      { colId: 'reason', kind: 'text', width: 300 },
      { colId: 'undone', kind: 'date', width: 129 },
    ] as const;
    const got = fitToRoom(shown, 480);
    expect(got.get('reason')).toBe(251);
    expect(got.get('undone')).toBe(129);
    expect(total(got)).toBe(480);
  });

  it('never takes a long text under its floor, nor any other column under its measure: then the grid scrolls', () => {
    const got = fitToRoom(
      [
        { colId: 'reason', kind: 'text', width: 300 },
        { colId: 'name', kind: 'link', width: 190 },
        { colId: 'date', kind: 'date', width: 110 },
      ],
      353,
    );
    expect(got.get('reason')).toBe(LONG_TEXT_FLOOR);
    expect(got.get('name')).toBe(190);
    expect(got.get('date')).toBe(110);
  });
});
