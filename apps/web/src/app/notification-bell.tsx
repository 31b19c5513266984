// The unread count's badge: not among the shell's shared Mantine styles (mantine-signed-in.css).
import '@mantine/core/styles/Indicator.layer.css';
import { pagesOfEntity } from '@campus/entities/pages';
import { ActionIcon, Badge, Button, Group, Indicator, Popover, ScrollArea, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconBell, IconCheck, IconChecks } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { modePath } from '../engine/entity-mode';
import { formatDate } from '../lib/format';
import { http } from '../lib/http-client';
import { SOCKET_DOM_EVENT, type SocketDomDetail } from '../lib/realtime-socket';
import { useSession } from '../lib/session-store';
import { pageKey, useAllowedPages } from './use-allowed-pages';

/** One stored run of a rule for the signed-in user (GET /api/notification/userNotification/{usercode}). */
export interface UserNotification {
  usr_ntf_cd: number;
  ntf_id: number;
  ntf_nm: string;
  usr_ntf_dt: string;
  usr_ntf_ttl: string;
  usr_ntf_cnt: number;
  usr_ntf_is_read: boolean;
  crt_dt: string;
  entity: string | null;
  rule_where: unknown;
  rule_date: unknown;
}

interface BellAnswer {
  rows: UserNotification[];
  unread: number;
}

export const bellQueryKey = (usrCd: number | undefined, instCd: number | undefined): readonly unknown[] => ['user-notifications', usrCd ?? null, instCd ?? null];

/** The URL a notification opens: its entity's first page the user holds, filtered by the rule's conditions. */
export function notificationPath(n: Pick<UserNotification, 'entity' | 'rule_where' | 'rule_date' | 'ntf_nm'>, allowed: ReadonlySet<string>): string | null {
  if (!n.entity) return null;
  const page = pagesOfEntity(n.entity).find((p) => allowed.has(pageKey(p.module, p.page)));
  if (!page) return null;
  const where = Array.isArray(n.rule_where) ? n.rule_where : [];
  const dateFilter = n.rule_date && typeof n.rule_date === 'object' ? n.rule_date : null;
  const params = new URLSearchParams();
  if (where.length || dateFilter) params.set('rule', JSON.stringify({ where, dateFilter }));
  params.set('rule_nm', n.ntf_nm);
  return `${modePath(page.module, page.page, 'table')}?${params.toString()}`;
}

/**
 * The bell: the signed-in user's notifications in this institute, newest first, with the unread count.
 * Refreshes on the socket's updateNotification and when the window regains focus; a click marks the
 * notification read and opens its page with the rule's filter.
 */
export function NotificationBell({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const { user, institute } = useSession();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [opened, setOpened] = useState(false);
  const { items } = useAllowedPages();
  const allowed = useMemo(() => new Set(items.map((i) => pageKey(i.page.module, i.page.page))), [items]);
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

  const quiet = { headers: { dontShowMsg: '1' }, keepOnNavigation: true };
  const markRead = useMutation({
    mutationFn: (id: number) => http.put<{ ok: boolean }>(`/api/notification/userNotification/${id}/read`, {}, quiet),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['user-notifications'] }),
  });
  const markAll = useMutation({
    mutationFn: () => http.put<{ read: number }>('/api/notification/userNotification/readAll', {}, quiet),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['user-notifications'] }),
  });

  if (!user) return null;
  const unread = query.data?.unread ?? 0;
  const rows = query.data?.rows ?? [];
  const label = t('notification.bell', { defaultValue: 'Notifications' });

  const open = (n: UserNotification) => {
    if (!n.usr_ntf_is_read) markRead.mutate(n.usr_ntf_cd);
    const path = notificationPath(n, allowed);
    setOpened(false);
    if (path) void navigate(path);
  };

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
      <Popover.Target>
        <Indicator label={unread > 99 ? '99+' : unread} size={16} color="red" disabled={unread === 0} offset={4} data-testid="notification-count">
          <Tooltip label={label} disabled={opened}>
            <ActionIcon variant="subtle" size={compact ? 'md' : 'lg'} aria-label={label} onClick={() => setOpened((o) => !o)} data-testid="notification-bell">
              <IconBell size={20} />
            </ActionIcon>
          </Tooltip>
        </Indicator>
      </Popover.Target>
      <Popover.Dropdown p="xs" data-testid="notification-list">
        <Group justify="space-between" mb={6} wrap="nowrap">
          <Text fw={600} size="sm">
            {label}
            {unread > 0 && (
              <Text span c="dimmed" size="xs" ml={6}>
                {t('notification.unread', { defaultValue: '{{n}} unread', n: unread })}
              </Text>
            )}
          </Text>
          <Button
            size="compact-xs"
            variant="subtle"
            leftSection={<IconChecks size={14} />}
            disabled={unread === 0}
            loading={markAll.isPending}
            onClick={() => markAll.mutate()}
            data-testid="notification-read-all"
          >
            {t('notification.mark_all', { defaultValue: 'Mark all as read' })}
          </Button>
        </Group>
        {rows.length === 0 ? (
          <Text size="sm" c="dimmed" ta="center" py="md">
            {t('notification.empty', { defaultValue: 'No notifications yet.' })}
          </Text>
        ) : (
          <ScrollArea.Autosize mah={compact ? '60dvh' : 420} type="auto">
            <Stack gap={4}>
              {rows.map((n) => (
                <Group
                  key={n.usr_ntf_cd}
                  wrap="nowrap"
                  gap={6}
                  align="flex-start"
                  p={6}
                  style={{ borderRadius: 6, background: n.usr_ntf_is_read ? undefined : 'var(--mantine-color-blue-0)' }}
                  data-testid="notification-item"
                  data-read={n.usr_ntf_is_read ? '1' : '0'}
                >
                  <UnstyledButton onClick={() => open(n)} style={{ flex: 1, minWidth: 0 }} aria-label={n.ntf_nm}>
                    <Text size="sm" fw={n.usr_ntf_is_read ? 400 : 600} truncate="end">
                      {n.ntf_nm}
                    </Text>
                    <Group gap={6} wrap="nowrap">
                      <Badge size="sm" variant="light" tt="none" color={n.usr_ntf_is_read ? 'gray' : 'blue'}>
                        {t('notification.records', { defaultValue: 'Records: {{n}}', n: n.usr_ntf_cnt })}
                      </Badge>
                      <Text size="xs" c="dimmed">
                        {formatDate(n.usr_ntf_dt)}
                      </Text>
                    </Group>
                  </UnstyledButton>
                  {!n.usr_ntf_is_read && (
                    <Tooltip label={t('notification.mark_read', { defaultValue: 'Mark as read' })}>
                      <ActionIcon
                        size="sm"
                        variant="subtle"
                        aria-label={t('notification.mark_read', { defaultValue: 'Mark as read' })}
                        onClick={() => markRead.mutate(n.usr_ntf_cd)}
                        data-testid="notification-mark-read"
                      >
                        <IconCheck size={14} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                </Group>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
