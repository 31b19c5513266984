// The signed-in screens' share of Mantine's styles (the sign-in page loads only its own).
import './mantine-signed-in.css';
import { AppShell, Box, Burger, Group } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { useSession } from '../lib/session-store';
import { MOBILE_QUERY } from './app-theme';
import { BrandMark } from './brand-mark';
import { InstituteSwitcher, LanguageSwitcher, YearSwitcher } from './context-switchers';
import { MessageComposeButton } from './message-compose';
import { NotificationBell } from './notification-bell';
import { QuickMenuBar } from './quick-menu-bar';
import { PageLoader } from './root-layout';
import classes from './shell-layout.module.css';
import { SideMenu } from './side-menu';
import { useAcademicYears } from './use-academic-years';
import { useRealtime } from './use-realtime';
import { UserMenu } from './user-menu';

// Only a narrow screen opens the drawer: a wide screen's first load does without its code.
const ShellDrawer = lazy(() => import('./shell-drawer').then((m) => ({ default: m.ShellDrawer })));

/** The signed-in frame: header with the context switchers, side menu (a drawer at 768 px or less), page. */
export function ShellLayout() {
  const { t } = useTranslation();
  const isMobile = useMediaQuery(MOBILE_QUERY, false, { getInitialValueInEffect: false });
  const [drawerOpened, drawer] = useDisclosure(false);
  const { pathname } = useLocation();
  const { institute, year } = useSession();
  const { ready } = useAcademicYears();
  const mainRef = useRef<HTMLElement>(null);
  useRealtime();

  const closeDrawer = drawer.close;
  useEffect(() => {
    closeDrawer();
  }, [pathname, closeDrawer]);

  return (
    <AppShell header={{ height: 56 }} navbar={isMobile ? undefined : { width: 264, breakpoint: 0 }} padding={isMobile ? 'xs' : 'md'}>
      <a
        href="#main-content"
        className={classes.skipLink}
        onClick={(e) => {
          // Focus moves, the URL stays: a #fragment would be taken for a route change.
          e.preventDefault();
          mainRef.current?.focus();
        }}
      >
        {t('common.skip_to_content', { defaultValue: 'Skip to the page' })}
      </a>
      <AppShell.Header>
        <Group h="100%" px={isMobile ? 'xs' : 'md'} justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap">
            {isMobile && (
              <Burger opened={drawerOpened} onClick={drawer.toggle} size="sm" aria-label={t('common.menu', { defaultValue: 'Menu' })} />
            )}
            <BrandMark />
          </Group>
          <Group gap="xs" wrap="nowrap">
            {!isMobile && (
              <>
                <InstituteSwitcher size="xs" w={{ base: 230, lg: 380 }} />
                <YearSwitcher size="xs" w={130} />
                <LanguageSwitcher size="xs" w={125} />
              </>
            )}
            <QuickMenuBar compact={isMobile} />
            <MessageComposeButton compact={isMobile} />
            <NotificationBell compact={isMobile} />
            <UserMenu compact={isMobile} />
          </Group>
        </Group>
      </AppShell.Header>

      {!isMobile && (
        <AppShell.Navbar>
          <SideMenu />
        </AppShell.Navbar>
      )}

      <AppShell.Main bg="var(--mantine-color-gray-0)" id="main-content" ref={mainRef} tabIndex={-1} className={classes.main}>
        {ready ? (
          <Suspense fallback={<PageLoader />}>
            {/* Re-keyed on a switch so the page refetches under the new institute / year headers. */}
            <Box key={`${institute?.inst_cd ?? ''}:${year?.acdm_cd ?? ''}`}>
              <Outlet />
            </Box>
          </Suspense>
        ) : (
          <PageLoader />
        )}
      </AppShell.Main>

      {isMobile && (
        <Suspense fallback={null}>
          <ShellDrawer opened={drawerOpened} onClose={drawer.close} />
        </Suspense>
      )}
    </AppShell>
  );
}
