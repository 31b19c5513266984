import { DEFAULT_THEME, luminance } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { appTheme, contrastRatio, textSafe } from './app-theme';

const AA = 4.5;
const colors = appTheme.colors ?? {};
const palettes = Object.entries(colors).flatMap(([name, p]) => (p && name !== 'gray' && name !== 'dark' ? [[name, p] as const] : []));

describe('theme colours read at WCAG AA (4.5:1)', () => {
  it('measures contrast as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    // Mantine's dimmed grey on white, the figure.
    expect(contrastRatio('#868e96', '#ffffff')).toBeCloseTo(3.32, 2);
  });

  it('dimmed text (gray 6) on white and on the grey page background, placeholders (gray 5) on white', () => {
    const gray = colors.gray!;
    for (const bg of ['#ffffff', gray[0], gray[1]]) expect(contrastRatio(gray[6], bg), `dimmed on ${bg}`).toBeGreaterThanOrEqual(AA);
    expect(contrastRatio(gray[5], '#ffffff')).toBeGreaterThanOrEqual(AA);
    // Borders and backgrounds (0 to 4) stay Mantine's.
    expect(gray.slice(0, 5)).toEqual(DEFAULT_THEME.colors.gray.slice(0, 5));
  });

  it.each(palettes)('%s: text shades 7 to 9 on white, light variant (9 on 1, hover 2), white on filled (8)', (name, p) => {
    for (const i of [7, 8, 9]) expect(contrastRatio(p[i], '#ffffff'), `${name} ${i} on white`).toBeGreaterThanOrEqual(AA);
    expect(contrastRatio(p[9], p[1]), `${name} light`).toBeGreaterThanOrEqual(AA);
    expect(contrastRatio(p[9], p[2]), `${name} light hover`).toBeGreaterThanOrEqual(AA);
    // Still a scale from light to dark.
    for (let i = 1; i < 10; i++) expect(luminance(p[i]), `${name} ${i}`).toBeLessThanOrEqual(luminance(p[i - 1]));
  });

  it('the error colour (red 6) reads on white', () => {
    expect(contrastRatio(colors.red![6], '#ffffff')).toBeGreaterThanOrEqual(AA);
  });

  it('keeps shades that already read as they are, and darkens the others only as far as needed', () => {
    // Mantine's pink reads everywhere already (7: 4.6:1, 9 on 2: 4.8:1).
    expect(textSafe(DEFAULT_THEME.colors.pink)).toEqual(DEFAULT_THEME.colors.pink);
    const blue = DEFAULT_THEME.colors.blue;
    expect(textSafe(blue).slice(0, 7)).toEqual(blue.slice(0, 7));
    const green = textSafe(DEFAULT_THEME.colors.green);
    expect(contrastRatio(green[8], '#ffffff')).toBeLessThan(5.5);
  });
});
