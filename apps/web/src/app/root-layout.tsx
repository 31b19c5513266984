import { Center, Loader } from '@mantine/core';
import { Suspense, useEffect } from 'react';
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

export function RootLayout() {
  const { pathname } = useLocation();
  const { t, i18n } = useTranslation();

  useEffect(() => {
    document.title = documentTitle(pathname, (key, fallback) => t(key, { defaultValue: fallback }));
  }, [pathname, t, i18n.language]);

  return (
    <>
      <GlobalLoader />
      <Suspense fallback={<PageLoader />}>
        <Outlet />
      </Suspense>
    </>
  );
}
