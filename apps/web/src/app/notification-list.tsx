// The bell's open list: loaded on the first hover, focus or click of the bell, so the first load carries only the
// bell and its unread count (the marking mutations, the entity pages and the rows' layout come with this file).
import { pagesOfEntity } from '@campus/entities/pages';
import { ActionIcon, Badge, Button, Group, ScrollArea, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconCheck, IconChecks, IconShieldExclamation } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { modePath } from '../engine/entity-mode';
import { formatDate } from '../lib/format';
import { http } from '../lib/http-client';
import type { SecurityAlarmFacts, UserNotification } from '@campus/entities/features/notification.entity';
import { pageKey, useAllowedPages } from './use-allowed-pages';

/** Where a security alarm leads: the dashboard, whose Security events card lifts the block. */
export const SECURITY_ALARM_PATH = '/sms/dashboard';

/**
 * The URL a notification opens: a security alarm the dashboard; a rule's run its entity's first page the
 * user holds, filtered by the rule's conditions.
 */
export function notificationPath(
  n: Pick<UserNotification, 'usr_ntf_kind' | 'entity' | 'rule_where' | 'rule_date' | 'ntf_nm'>,
  allowed: ReadonlySet<string>,
): string | null {
  if (n.usr_ntf_kind === 'security') return SECURITY_ALARM_PATH;
  if (!n.entity) return null;
  const page = pagesOfEntity(n.entity).find((p) => allowed.has(pageKey(p.module, p.page)));
  if (!page) return null;
  const where = Array.isArray(n.rule_where) ? n.rule_where : [];
  const dateFilter = n.rule_date && typeof n.rule_date === 'object' ? n.rule_date : null;
  const params = new URLSearchParams();
  if (where.length || dateFilter) params.set('rule', JSON.stringify({ where, dateFilter }));
  params.set('rule_nm', n.ntf_nm ?? '');
  return `${modePath(page.module, page.page, 'table')}?${params.toString()}`;
}

/** A security alarm's stored facts, when the row holds them (the title is said again from them in the viewer's language). */
function alarmFacts(v: unknown): SecurityAlarmFacts | null {
  const f = v && typeof v === 'object' && !Array.isArray(v) ? (v as Partial<SecurityAlarmFacts>) : null;
  return f && typeof f.usr_nm === 'string' && typeof f.rows === 'number' && typeof f.budget === 'number' ? (f as SecurityAlarmFacts) : null;
}

/** The dropdown's content: header with the unread count and 'mark all', then the notifications. */
export function NotificationList({ rows, unread, compact, onClose }: { rows: readonly UserNotification[]; unread: number; compact: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { items } = useAllowedPages();
  const allowed = useMemo(() => new Set(items.map((i) => pageKey(i.page.module, i.page.page))), [items]);
  const label = t('notification.bell', { defaultValue: 'Notifications' });

  const quiet = { headers: { dontShowMsg: '1' }, keepOnNavigation: true };
  const markRead = useMutation({
    mutationFn: (id: number) => http.put<{ ok: boolean }>(`/api/notification/userNotification/${id}/read`, {}, quiet),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['user-notifications'] }),
  });
  const markAll = useMutation({
    mutationFn: () => http.put<{ read: number }>('/api/notification/userNotification/readAll', {}, quiet),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['user-notifications'] }),
  });

  // A rule's run is named by its rule; a security alarm by its sentence, in the viewer's language when the facts are there.
  const headline = (n: UserNotification): string => {
    if (n.usr_ntf_kind !== 'security') return n.ntf_nm ?? n.usr_ntf_ttl;
    const f = alarmFacts(n.usr_ntf_rows);
    if (!f) return n.usr_ntf_ttl;
    const who = f.usr_full_nm?.trim() ? `${f.usr_full_nm.trim()} (${f.usr_nm})` : f.usr_nm;
    return t('notification.security_bulk_read', { defaultValue: n.usr_ntf_ttl, who, rows: f.rows.toLocaleString(), budget: f.budget.toLocaleString() });
  };

  const open = (n: UserNotification) => {
    if (!n.usr_ntf_is_read) markRead.mutate(n.usr_ntf_cd);
    const path = notificationPath(n, allowed);
    onClose();
    if (path) void navigate(path);
  };

  return (
    <>
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
          {rows.map((n) => {
            const security = n.usr_ntf_kind === 'security';
            const unreadBg = security ? 'var(--mantine-color-red-0)' : 'var(--mantine-color-blue-0)';
            const text = headline(n);
            return (
              <Group
                key={n.usr_ntf_cd}
                wrap="nowrap"
                gap={6}
                align="flex-start"
                p={6}
                style={{
                  borderRadius: 6,
                  background: n.usr_ntf_is_read ? undefined : unreadBg,
                  // A security alarm stands out even once read: a red edge.
                  borderLeft: security ? '3px solid var(--mantine-color-red-6)' : undefined,
                }}
                data-testid="notification-item"
                data-kind={n.usr_ntf_kind}
                data-read={n.usr_ntf_is_read ? '1' : '0'}
              >
                {security && <IconShieldExclamation size={20} stroke={1.8} color="var(--mantine-color-red-6)" style={{ flexShrink: 0, marginTop: 2 }} aria-hidden />}
                <UnstyledButton onClick={() => open(n)} style={{ flex: 1, minWidth: 0 }} aria-label={text}>
                  {security ? (
                    <Text size="sm" fw={n.usr_ntf_is_read ? 400 : 600} lineClamp={4}>
                      {text}
                    </Text>
                  ) : (
                    <Text size="sm" fw={n.usr_ntf_is_read ? 400 : 600} truncate="end">
                      {text}
                    </Text>
                  )}
                  <Group gap={6} wrap="nowrap">
                    {security ? (
                      <Badge size="sm" variant={n.usr_ntf_is_read ? 'light' : 'filled'} tt="none" color="red">
                        {t('notification.security_label', { defaultValue: 'Security alert' })}
                      </Badge>
                    ) : (
                      <Badge size="sm" variant="light" tt="none" color={n.usr_ntf_is_read ? 'gray' : 'blue'}>
                        {t('notification.records', { defaultValue: 'Records: {{n}}', n: n.usr_ntf_cnt })}
                      </Badge>
                    )}
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
            );
          })}
        </Stack>
      </ScrollArea.Autosize>
    )}
    </>
  );
}
