import { Center, createTheme, InputClearButton, Loader, MantineThemeProvider } from '@mantine/core';
import { Suspense, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { documentTitle } from '../lib/page-title';
import { GlobalLoader } from './global-loader';

export function PageLoader() {
  return (
    <Center h="60vh" aria-label="Loading">
      <Loader />
    </Center>
  );
}

/**
 * A name for the clear (x) Mantine shows in a select, date or file field that has a value, in the user's
 * language, on every screen: without one a screen reader says only 'button' (axe: button-name). A field's
 * own clearButtonProps label still wins. (Close buttons are named where they are used: CloseButton puts
 * theme attributes after its own props, so a theme default would overwrite a screen's 'Clear'.)
 */
export function useClearButtonName() {
  const { t, i18n } = useTranslation();
  return useMemo(
    () =>
      createTheme({
        components: {
          InputClearButton: InputClearButton.extend({ defaultProps: { 'aria-label': t('btn.clear', { defaultValue: 'Clear' }) } }),
        },
      }),
    // t changes with the language, so the name follows a switch of language.
    [t, i18n.language],
  );
}

export function RootLayout() {
  const { pathname } = useLocation();
  const { t, i18n } = useTranslation();
  const clearButtonName = useClearButtonName();

  useEffect(() => {
    document.title = documentTitle(pathname, (key, fallback) => t(key, { defaultValue: fallback }));
  }, [pathname, t, i18n.language]);

  return (
    <MantineThemeProvider theme={clearButtonName}>
      <GlobalLoader />
      <Suspense fallback={<PageLoader />}>
        <Outlet />
      </Suspense>
    </MantineThemeProvider>
  );
}
