// Only the sign-in page's share of Mantine's styles; the signed-in screens bring the rest.
import './app/mantine-sign-in.css';
// Tamil screens must not depend on the office PC having a Tamil font (most Linux desks and kiosks do not);
// fetched only when Tamil text is on screen (unicode-range).
import './app/tamil-font.css';
import './app/print.css';
import { MantineProvider } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { useTranslation } from 'react-i18next';
import { appTheme } from './app/app-theme';
import { AppRouter } from './app/app-router';
import { queryClient } from './app/query-client';
import { installGlobalErrorHandler } from './lib/global-error-handler';
import { initI18n, localeOf } from './lib/i18n';
import { TOAST_DURATION_MS } from './lib/toast';

function LocalisedDates({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  return <DatesProvider settings={{ locale: localeOf(i18n.language ?? 'english') }}>{children}</DatesProvider>;
}

function App() {
  return (
    <StrictMode>
      <MantineProvider theme={appTheme} defaultColorScheme="light">
        <Notifications position="top-right" autoClose={TOAST_DURATION_MS} limit={5} zIndex={4000} />
        <QueryClientProvider client={queryClient}>
          <LocalisedDates>
            <AppRouter />
          </LocalisedDates>
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>
  );
}

installGlobalErrorHandler();

const root = createRoot(document.getElementById('root')!);
// The first paint waits for the language file (a few KB) so no screen flashes raw keys.
void initI18n().finally(() => root.render(<App />));
