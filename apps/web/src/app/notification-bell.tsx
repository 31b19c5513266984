// The unread count's badge: not among the shell's shared Mantine styles (mantine-signed-in.css).
import '@mantine/core/styles/Indicator.layer.css';
import { ActionIcon, Indicator, Popover, Text, Tooltip } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../lib/http-client';
import { SOCKET_DOM_EVENT, type SocketDomDetail } from '../lib/realtime-socket';
import { useSession } from '../lib/session-store';
import type { UserNotification } from '@campus/entities/features/notification.entity';

// The open list (its rows, the marking mutations, the entity pages a click opens) comes with the first hover,
// focus or click: the first load carries only the bell and its unread count.
const loadList = () => import('./notification-list');
const NotificationList = lazy(() => loadList().then((m) => ({ default: m.NotificationList })));


interface BellAnswer {
  rows: UserNotification[];
  unread: number;
}

export const bellQueryKey = (usrCd: number | undefined, instCd: number | undefined): readonly unknown[] => ['user-notifications', usrCd ?? null, instCd ?? null];

/**
 * The bell: the signed-in user's notifications in this institute, newest first, with the unread count.
 * Refreshes on the socket's updateNotification and when the window regains focus; a click marks the
 * notification read and opens its page with the rule's filter (notification-list.tsx).
 */
export function NotificationBell({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const { user, institute } = useSession();
  const qc = useQueryClient();
  const [opened, setOpened] = useState(false);
  const key = bellQueryKey(user?.usr_cd, institute?.inst_cd);

  const query = useQuery({
    queryKey: key,
    enabled: !!user,
    staleTime: 30_000,
    refetchOnWindowFocus: true,
    queryFn: ({ signal }) =>
      http.get<BellAnswer>(`/api/notification/userNotification/${user?.usr_cd ?? 0}`, { signal, silent: true, keepOnNavigation: true }),
  });

  useEffect(() => {
    const onSocket = (e: Event) => {
      if ((e as CustomEvent<SocketDomDetail>).detail?.event === 'updateNotification') void qc.invalidateQueries({ queryKey: ['user-notifications'] });
    };
    window.addEventListener(SOCKET_DOM_EVENT, onSocket);
    return () => window.removeEventListener(SOCKET_DOM_EVENT, onSocket);
  }, [qc]);

  if (!user) return null;
  const unread = query.data?.unread ?? 0;
  const rows = query.data?.rows ?? [];
  // An unread security alarm (a bulk-read crossing) turns the bell red until it is read.
  const alarm = rows.some((r) => r.usr_ntf_kind === 'security' && !r.usr_ntf_is_read);
  const label = t('notification.bell', { defaultValue: 'Notifications' });

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      shadow="md"
      width={compact ? 'calc(100vw - 16px)' : 380}
      withinPortal
      onOpen={() => void query.refetch()}
    >
      {/* The target is the button itself: aria-expanded / aria-haspopup belong on it, not on the badge's div. */}
      <Indicator label={unread > 99 ? '99+' : unread} size={16} color="red" disabled={unread === 0} offset={4} data-testid="notification-count">
        <Popover.Target>
          <Tooltip label={label} disabled={opened}>
            <ActionIcon
              variant="subtle"
              color={alarm ? 'red' : undefined}
              data-alarm={alarm ? '1' : '0'}
              size={compact ? 'md' : 'lg'}
              aria-label={label}
              onClick={() => setOpened((o) => !o)}
              onPointerEnter={() => void loadList()}
              onFocus={() => void loadList()}
              data-testid="notification-bell"
            >
              <IconBell size={20} />
            </ActionIcon>
          </Tooltip>
        </Popover.Target>
      </Indicator>
      <Popover.Dropdown p="xs" data-testid="notification-list">
        <Suspense
          fallback={
            <Text size="sm" c="dimmed" ta="center" py="md">
              {t('common.loading', { defaultValue: 'Loading...' })}
            </Text>
          }
        >
          <NotificationList rows={rows} unread={unread} compact={compact} onClose={() => setOpened(false)} />
        </Suspense>
      </Popover.Dropdown>
    </Popover>
  );
}
