import { createTheme, DEFAULT_THEME, Input, luminance, NavLink, toRgba, type MantineColorsTuple } from '@mantine/core';
import classes from './app-theme.module.css';

// A calm institutional blue; the default Mantine blue reads as a generic web app.
const campus: MantineColorsTuple = [
  '#eef3ff',
  '#dce4f5',
  '#b6c7e6',
  '#8ca8d7',
  '#6a8dca',
  '#547cc2',
  '#4874bf',
  '#3963a9',
  '#305897',
  '#244b86',
];

/** WCAG contrast ratio of two opaque colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** WCAG AA for normal text is 4.5:1; a little above it, so anti-aliasing and rounding never dip below. */
export const TEXT_CONTRAST = 4.6;

const hex = (n: number): string => Math.round(n).toString(16).padStart(2, '0');

/** The colour, darkened towards black in small steps (same hue) until it reads on every background given. */
function readableOn(color: string, backgrounds: readonly string[]): string {
  const { r, g, b } = toRgba(color);
  for (let f = 1; f > 0; f -= 0.02) {
    const candidate = `#${hex(r * f)}${hex(g * f)}${hex(b * f)}`;
    if (backgrounds.every((bg) => contrastRatio(candidate, bg) >= TEXT_CONTRAST)) return candidate;
  }
  return '#000000';
}

/**
 * Shades 7 to 9 of every palette carry text, so each reads on white at AA: light variants (badges,
 * buttons, alerts) write shade 9 on shade 1 and hover to shade 2; filled ones put white text on shade 8
 * (primaryShade); pages colour text with shades 7 and 8 (the mark list's fail and pass). Mantine's own
 * orange, green, teal, yellow... fall below 4.5:1 there; they are darkened as little as needed, keeping
 * their hue. `also` lists further shades that carry text in one palette.
 */
export function textSafe(palette: readonly string[], also: readonly number[] = []): MantineColorsTuple {
  const out = [...palette];
  for (const i of [...also, 7, 8, 9].sort((x, y) => x - y)) {
    const backgrounds = i === 9 ? ['#ffffff', out[1]!, out[2]!] : ['#ffffff'];
    // Never lighter than the shade below it: the scale must still run from light to dark.
    const prev = i > 0 && luminance(out[i - 1]!) < luminance(out[i]!) ? out[i - 1]! : out[i]!;
    out[i] = readableOn(prev, backgrounds);
  }
  return out as unknown as MantineColorsTuple;
}

const base = DEFAULT_THEME.colors;
const g = base.gray;
/**
 * gray 5 is Mantine's placeholder colour (#adb5bd, 2.1:1) and gray 6 its dimmed text (#868e96, 3.3:1): both
 * are read, so both reach AA; dimmed on the grey page background (gray 0/1) as well as on white.
 */
const gray: MantineColorsTuple = [g[0], g[1], g[2], g[3], g[4], readableOn(g[5], ['#ffffff']), readableOn(g[6], ['#ffffff', g[0], g[1]]), g[7], g[8], g[9]];

const tuned = Object.fromEntries(
  (['red', 'pink', 'grape', 'violet', 'indigo', 'blue', 'cyan', 'teal', 'green', 'lime', 'yellow', 'orange'] as const).map((name) => [
    name,
    // red 6 is Mantine's error colour: the message under a field is text too.
    textSafe(base[name], name === 'red' ? [6] : []),
  ]),
);

export const appTheme = createTheme({
  primaryColor: 'campus',
  colors: { ...tuned, gray, campus: textSafe(campus) },
  primaryShade: 8,
  defaultRadius: 'md',
  fontFamily: 'Inter, "Segoe UI", Roboto, "Noto Sans Tamil", "Helvetica Neue", Arial, sans-serif',
  headings: { fontFamily: 'Inter, "Segoe UI", Roboto, "Noto Sans Tamil", "Helvetica Neue", Arial, sans-serif', fontWeight: '650' },
  // Spec section 9: mobile view at 768 px or less; Mantine's sm is 48em = 768 px.
  breakpoints: { xs: '36em', sm: '48em', md: '62em', lg: '75em', xl: '88em' },
  components: {
    // Every text input, select, date and file picker, password box: a visible focus ring (app-theme.module.css).
    Input: Input.extend({ classNames: { input: classes.input } }),
    NavLink: NavLink.extend({ classNames: { root: classes.navLink } }),
  },
});

/** Spec section 9: the mobile view starts at 768 px and below. */
export const MOBILE_QUERY = '(max-width: 768px)';
