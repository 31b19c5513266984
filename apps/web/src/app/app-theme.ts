import { createTheme, type MantineColorsTuple } from '@mantine/core';

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

export const appTheme = createTheme({
  primaryColor: 'campus',
  colors: { campus },
  primaryShade: 8,
  defaultRadius: 'md',
  fontFamily: 'Inter, "Segoe UI", Roboto, "Noto Sans Tamil", "Helvetica Neue", Arial, sans-serif',
  headings: { fontFamily: 'Inter, "Segoe UI", Roboto, "Noto Sans Tamil", "Helvetica Neue", Arial, sans-serif', fontWeight: '650' },
  // Spec section 9: mobile view at 768 px or less; Mantine's sm is 48em = 768 px.
  breakpoints: { xs: '36em', sm: '48em', md: '62em', lg: '75em', xl: '88em' },
});

/** Spec section 9: the mobile view starts at 768 px and below. */
export const MOBILE_QUERY = '(max-width: 768px)';
