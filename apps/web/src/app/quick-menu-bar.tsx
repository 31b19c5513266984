import { findPage } from '@campus/entities/pages';
import { ActionIcon, Button, Group, Menu, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconBolt, IconCalendar, IconLayoutDashboard, IconPencil, IconPlus, IconX, type Icon } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { HttpError, http } from '../lib/http-client';
import { serverMessage } from '../lib/http-rules';
import { toast } from '../lib/toast';
import { menuIcon } from './menu-icons';

/** One shortcut of GET /api/quick_menu/ (the signed-in user's own, pages they may open). */
export interface Shortcut {
  qm_cd: number;
  qm_pg_nm: string;
  qm_pg_pth: string;
  qm_pg_icn: string | null;
  qm_ord: number | null;
}

export const QUICK_MENU_KEY = ['quick-menu'] as const;
/** On a wide header, this many shortcuts as icons; the rest in the editor's list (the server keeps at most 12). */
const SHOWN_WIDE = 6;

const ownIcons: Record<string, Icon> = { 'layout-dashboard': IconLayoutDashboard, calendar: IconCalendar };
const iconOf = (name: string | null): Icon => (name ? (ownIcons[name] ?? menuIcon(name)) : IconBolt);

/**
 * The page the browser is on, as a shortcut would keep it (sms/module/page, or the dashboard and schedule,
 * open to everyone) with its name in the user's language; null off a page (landing, error pages).
 */
export function currentPage(pathname: string, t: (key: string, o: { defaultValue: string }) => string): { path: string; name: string } | null {
  const [, area, module, page] = pathname.split('/');
  if (area !== 'sms' || !module) return null;
  if (module === 'dashboard') return { path: 'sms/dashboard', name: t('common.dashboard', { defaultValue: 'Dashboard' }) };
  if (module === 'schedule') return { path: 'sms/schedule/table', name: t('common.schedule', { defaultValue: 'Schedule' }) };
  const pg = page ? findPage(module, page) : undefined;
  if (!pg) return null;
  return { path: `sms/${pg.module}/${pg.page}`, name: t(`page.${pg.module}.${pg.page}`, { defaultValue: pg.label }) };
}

/** Where a shortcut opens: a page's list, or the dashboard / schedule themselves. */
export const shortcutHref = (path: string): string => (/^sms\/[^/]+\/[^/]+$/.test(path) && path !== 'sms/schedule/table' ? `/${path}/table` : `/${path}`);

function useShortcuts() {
  return useQuery({
    queryKey: QUICK_MENU_KEY,
    queryFn: ({ signal }) => http.get<{ rows: Shortcut[] }>('/api/quick_menu/', { signal, query: { size: 100 }, keepOnNavigation: true }),
    staleTime: 5 * 60_000,
  });
}

/**
 * The user's page shortcuts in the header: icons with their names as tooltips on a wide screen, one menu
 * button on a narrow one; both open the editor (add the page you are on, remove, reorder).
 */
export function QuickMenuBar({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const query = useShortcuts();
  const [editing, setEditing] = useState(false);
  const list = query.data?.rows ?? [];
  const title = t('quick_menu.title', { defaultValue: 'Quick menu' });
  const editLabel = t('quick_menu.edit', { defaultValue: 'Edit quick menu' });

  const editor = editing && <QuickMenuEditor shortcuts={list} onClose={() => setEditing(false)} />;

  if (compact) {
    return (
      <>
        <Menu position="bottom-end" width={240} withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" size="lg" aria-label={title} data-testid="quick-menu-button">
              <IconBolt size={20} stroke={1.6} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown data-testid="quick-menu-list">
            <Menu.Label>{title}</Menu.Label>
            {list.length === 0 && (
              <Text size="sm" c="dimmed" px="sm" py={4}>
                {t('quick_menu.empty', { defaultValue: 'No shortcuts yet.' })}
              </Text>
            )}
            {list.map((s) => {
              const I = iconOf(s.qm_pg_icn);
              return (
                <Menu.Item key={s.qm_cd} component={Link} to={shortcutHref(s.qm_pg_pth)} leftSection={<I size={16} stroke={1.6} />}>
                  {s.qm_pg_nm}
                </Menu.Item>
              );
            })}
            <Menu.Divider />
            <Menu.Item leftSection={<IconPencil size={16} stroke={1.6} />} onClick={() => setEditing(true)}>
              {editLabel}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
        {editor}
      </>
    );
  }

  return (
    <>
      <Group gap={2} wrap="nowrap" role="navigation" aria-label={title} data-testid="quick-menu-list">
        {list.slice(0, SHOWN_WIDE).map((s) => {
          const I = iconOf(s.qm_pg_icn);
          return (
            <Tooltip key={s.qm_cd} label={s.qm_pg_nm} withArrow>
              <ActionIcon component={Link} to={shortcutHref(s.qm_pg_pth)} variant="subtle" size="lg" aria-label={s.qm_pg_nm} data-shortcut={s.qm_pg_pth}>
                <I size={20} stroke={1.6} />
              </ActionIcon>
            </Tooltip>
          );
        })}
        <Tooltip label={editLabel} withArrow>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={editLabel} onClick={() => setEditing(true)} data-testid="quick-menu-edit">
            <IconPencil size={18} stroke={1.6} />
          </ActionIcon>
        </Tooltip>
      </Group>
      {editor}
    </>
  );
}

/** The small dialog: add the current page, remove or move shortcuts, then save the list in one call. */
function QuickMenuEditor({ shortcuts, onClose }: { shortcuts: Shortcut[]; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { pathname } = useLocation();
  const [order, setOrder] = useState<Shortcut[]>(shortcuts);
  const here = currentPage(pathname, t);
  const already = here ? shortcuts.some((s) => s.qm_pg_pth === here.path) : false;
  const failed = (err: unknown) => {
    const message = err instanceof HttpError ? serverMessage(err.body) : undefined;
    toast.danger(message ?? t('quick_menu.failed', { defaultValue: 'The quick menu could not be saved.' }));
  };

  const add = useMutation({
    mutationFn: (p: { path: string; name: string }) => http.post<Shortcut>('/api/quick_menu/', { qm_pg_nm: p.name, qm_pg_pth: p.path }, { silent: true }),
    onSuccess: async (row) => {
      setOrder((o) => [...o, row]);
      await qc.invalidateQueries({ queryKey: QUICK_MENU_KEY });
      toast.success(t('quick_menu.added', { defaultValue: 'Added to your quick menu.' }));
    },
    onError: failed,
  });
  const save = useMutation({
    mutationFn: (codes: number[]) => http.put('/api/quick_menu/mine', { order: codes }, { silent: true }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: QUICK_MENU_KEY });
      toast.success(t('quick_menu.saved', { defaultValue: 'Your quick menu is saved.' }));
      onClose();
    },
    onError: failed,
  });

  const move = (i: number, by: number) =>
    setOrder((o) => {
      const next = [...o];
      const [s] = next.splice(i, 1);
      next.splice(i + by, 0, s);
      return next;
    });

  return (
    <Modal opened onClose={onClose} title={t('quick_menu.edit', { defaultValue: 'Edit quick menu' })} size="md">
      <Stack gap="sm">
        {here && (
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            disabled={already || order.some((s) => s.qm_pg_pth === here.path)}
            loading={add.isPending}
            onClick={() => add.mutate(here)}
            data-testid="quick-menu-add"
          >
            {already || order.some((s) => s.qm_pg_pth === here.path)
              ? t('quick_menu.already', { defaultValue: 'This page is in your quick menu' })
              : t('quick_menu.add_page', { defaultValue: 'Add this page: {{name}}', name: here.name })}
          </Button>
        )}
        {order.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('quick_menu.empty', { defaultValue: 'No shortcuts yet.' })}
          </Text>
        )}
        {order.map((s, i) => {
          const I = iconOf(s.qm_pg_icn);
          return (
            <Group key={s.qm_cd} justify="space-between" wrap="nowrap" gap="xs" data-testid="quick-menu-row">
              <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                <I size={18} stroke={1.6} style={{ flexShrink: 0 }} />
                <Text size="sm" truncate>
                  {s.qm_pg_nm}
                </Text>
              </Group>
              <Group gap={2} wrap="nowrap">
                <ActionIcon variant="subtle" color="gray" disabled={i === 0} onClick={() => move(i, -1)} aria-label={t('quick_menu.up', { defaultValue: 'Move up' })}>
                  <IconArrowUp size={16} />
                </ActionIcon>
                <ActionIcon variant="subtle" color="gray" disabled={i === order.length - 1} onClick={() => move(i, 1)} aria-label={t('quick_menu.down', { defaultValue: 'Move down' })}>
                  <IconArrowDown size={16} />
                </ActionIcon>
                <ActionIcon variant="subtle" color="red" onClick={() => setOrder((o) => o.filter((x) => x.qm_cd !== s.qm_cd))} aria-label={t('quick_menu.remove', { defaultValue: 'Remove {{name}}', name: s.qm_pg_nm })}>
                  <IconX size={16} />
                </ActionIcon>
              </Group>
            </Group>
          );
        })}
        <Group justify="flex-end" gap="xs" mt="xs">
          <Button variant="default" onClick={onClose}>
            {t('btn.cancel', { defaultValue: 'Cancel' })}
          </Button>
          <Button loading={save.isPending} onClick={() => save.mutate(order.map((s) => s.qm_cd))} data-testid="quick-menu-save">
            {t('btn.save', { defaultValue: 'Save' })}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
