import { findPage } from '@campus/entities/pages';
import { ActionIcon, Group, Menu, Text, Tooltip } from '@mantine/core';
import { IconBolt, IconCalendar, IconLayoutDashboard, IconPencil, type Icon } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { http } from '../lib/http-client';
import { menuIcon } from './menu-icons';

const QuickMenuEditor = lazy(() => import('./quick-menu-editor').then((m) => ({ default: m.QuickMenuEditor })));

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
export const iconOf = (name: string | null): Icon => (name ? (ownIcons[name] ?? menuIcon(name)) : IconBolt);

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
    queryFn: ({ signal }) => http.get<{ rows: Shortcut[] }>('/api/quick_menu/', { signal, query: { size: 100, cols: 'qm_pg_nm,qm_pg_pth,qm_pg_icn,qm_ord' }, keepOnNavigation: true }),
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

  const editor = editing && (
    <Suspense fallback={null}>
      <QuickMenuEditor shortcuts={list} onClose={() => setEditing(false)} />
    </Suspense>
  );

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
