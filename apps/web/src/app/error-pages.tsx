import { Button, Center, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconLayoutDashboard, IconLockAccess, IconMapQuestion, IconRefresh, type Icon } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useRouteError } from 'react-router';
import { handleGlobalError } from '../lib/global-error-handler';
import { useSession } from '../lib/session-store';

function ErrorPage({ icon: IconC, code, title, text }: { icon: Icon; code: string; title: string; text: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  return (
    <Center mih="100dvh" p="md" bg="var(--mantine-color-gray-0)">
      <Stack align="center" gap="sm" maw={460} ta="center">
        <ThemeIcon size={72} radius="xl" variant="light" color="campus">
          <IconC size={40} stroke={1.5} />
        </ThemeIcon>
        <Text c="dimmed" fw={700} size="sm">
          {code}
        </Text>
        <Title order={1} size="h2">
          {title}
        </Title>
        <Text c="dimmed">{text}</Text>
        <Group mt="md" justify="center">
          <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={() => navigate(-1)}>
            {t('btn.go_back', { defaultValue: 'Go back' })}
          </Button>
          <Button component={Link} to={user ? '/sms/dashboard' : '/login'} leftSection={<IconLayoutDashboard size={16} />} replace>
            {user ? t('btn.go_dashboard', { defaultValue: 'Go to dashboard' }) : t('btn.sign_in', { defaultValue: 'Sign in' })}
          </Button>
        </Group>
      </Stack>
    </Center>
  );
}

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <ErrorPage
      icon={IconMapQuestion}
      code="404"
      title={t('errors.not_found_title', { defaultValue: 'Page not found' })}
      text={t('errors.not_found_text', { defaultValue: 'The page you asked for does not exist or has moved.' })}
    />
  );
}

export function NotAuthorisedPage() {
  const { t } = useTranslation();
  return (
    <ErrorPage
      icon={IconLockAccess}
      code="403"
      title={t('errors.not_authorised_title', { defaultValue: 'Not authorised' })}
      text={t('errors.not_authorised_text', {
        defaultValue: 'You do not have permission to open this page. Ask your administrator if you need it.',
      })}
    />
  );
}

/**
 * Route error boundary: a page that failed to render (or a chunk that failed to load after a deploy)
 * gets a way out instead of a blank screen.
 */
export function AppErrorPage({ embedded = false }: { embedded?: boolean }) {
  const { t } = useTranslation();
  const error = useRouteError();
  const chunkFailed = error instanceof Error && /dynamically imported module|Failed to fetch|Loading chunk/i.test(error.message);
  useEffect(() => {
    handleGlobalError(error);
  }, [error]);
  return (
    <Center mih={embedded ? '60vh' : '100dvh'} p="md">
      <Stack align="center" gap="sm" maw={460} ta="center">
        <ThemeIcon size={72} radius="xl" variant="light" color="red">
          <IconAlertTriangle size={40} stroke={1.5} />
        </ThemeIcon>
        <Title order={1} size="h2">
          {chunkFailed ? t('errors.reload_title', { defaultValue: 'A new version is available' }) : t('errors.crash_title', { defaultValue: 'Something went wrong' })}
        </Title>
        <Text c="dimmed">
          {chunkFailed
            ? t('errors.reload_text', { defaultValue: 'Reload the page to continue.' })
            : t('errors.crash_text', { defaultValue: 'This page could not be shown. Reload it, or go back to the dashboard.' })}
        </Text>
        <Group mt="md" justify="center">
          <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={() => window.location.reload()}>
            {t('btn.refresh', { defaultValue: 'Refresh' })}
          </Button>
          <Button component="a" href="/sms/dashboard" leftSection={<IconLayoutDashboard size={16} />}>
            {t('btn.go_dashboard', { defaultValue: 'Go to dashboard' })}
          </Button>
        </Group>
      </Stack>
    </Center>
  );
}
