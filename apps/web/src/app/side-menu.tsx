import { menuGroups, type PageDef } from '@campus/entities/pages';
import { Badge, Box, CloseButton, Group, NavLink, ScrollArea, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconCalendarEvent, IconLayoutDashboard, IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Translate } from '../engine/entity-labels';
import { Link, useLocation } from 'react-router';
import { menuIcon } from './menu-icons';
import { useSession } from '../lib/session-store';
import { adminLinks, isAdminLinkActive, type AdminLink } from './admin-links';
import { useAllowedPages, type MenuItem } from './use-allowed-pages';

export interface MenuSection {
  module: string;
  title: string;
  icon: string;
  badge?: string;
  children: MenuItem[];
  /** Administrators' screens of this group that are no granted page (admin-links.ts), after its pages. */
  links?: AdminLink[];
}

/** Groups in the spec's order, each with its allowed entries (and, for administrators, its admin links); empty ones hidden. */
export function menuSections(allowed: readonly MenuItem[], isAdmin = false): MenuSection[] {
  return menuGroups
    .map((g) => ({
      module: g.module,
      title: g.title,
      icon: g.icon,
      badge: g.badge,
      children: allowed.filter((i) => i.page.module === g.module),
      links: isAdmin ? adminLinks.filter((l) => l.module === g.module) : [],
    }))
    .filter((s) => s.children.length > 0 || (s.links?.length ?? 0) > 0);
}

export const pageLink = (p: Pick<PageDef, 'module' | 'page'>): string => `/sms/${p.module}/${p.page}/table`;

export const itemLink = (i: MenuItem): string => `/sms/${i.page.module}/${i.page.page}/${i.mode}`;

/** The entry's text: the page's name for its list, the entry's own name for a mode (Mark Attendance). */
export function itemLabel(i: MenuItem, t: Translate): string {
  const { module, page, label, menuEntry } = i.page;
  if (i.mode === 'table' || !menuEntry) return t(`page.${module}.${page}`, { defaultValue: label });
  return t(`menu_entry.${module}.${page}`, { defaultValue: menuEntry.label });
}

/** The entry the browser is on: a mode with its own entry is not also its page's list. */
export function isItemActive(i: MenuItem, pathname: string): boolean {
  const base = `/sms/${i.page.module}/${i.page.page}/`;
  if (i.mode !== 'table') return pathname.startsWith(`${base}${i.mode}`);
  const entry = i.page.menuEntry;
  return pathname.startsWith(base) && !(entry && pathname.startsWith(`${base}${entry.mode}`));
}

/** The group of the screen the browser is on: an admin link's group, else the module in the path. */
function activeModule(pathname: string): string | undefined {
  const link = adminLinks.find((l) => isAdminLinkActive(l, pathname));
  if (link) return link.module;
  const [, sms, module] = pathname.split('/');
  return sms === 'sms' ? module : undefined;
}

export function SideMenu({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { items, isLoading } = useAllowedPages();
  const { isAdmin } = useSession();
  const [filter, setFilter] = useState('');
  const [opened, setOpened] = useState<Record<string, boolean>>(() => {
    const m = activeModule(pathname);
    return m ? { [m]: true } : {};
  });
  // Arriving at another module by a tile, a link or a typed URL opens its group too (others stay as the
  // user left them). Adjusted during render, as React recommends for state derived from a changed prop.
  const current = activeModule(pathname);
  const [seenModule, setSeenModule] = useState(current);
  if (current !== seenModule) {
    setSeenModule(current);
    if (current && !opened[current]) setOpened((o) => ({ ...o, [current]: true }));
  }

  const sections = useMemo(() => menuSections(items, isAdmin), [items, isAdmin]);
  const linkLabel = (l: AdminLink): string => t(l.labelKey, { defaultValue: l.label });
  const needle = filter.trim().toLowerCase();
  const groupTitle = (s: MenuSection): string => t(`menu.${s.module}`, { defaultValue: s.title });

  const visible = needle
    ? sections
        .map((s) => ({
          ...s,
          children: groupTitle(s).toLowerCase().includes(needle) ? s.children : s.children.filter((i) => itemLabel(i, t).toLowerCase().includes(needle)),
          links: groupTitle(s).toLowerCase().includes(needle) ? s.links : s.links?.filter((l) => linkLabel(l).toLowerCase().includes(needle)),
        }))
        .filter((s) => s.children.length > 0 || (s.links?.length ?? 0) > 0)
    : sections;

  return (
    <Stack gap={0} h="100%">
      <Box p="sm" pb={6}>
        <TextInput
          size="xs"
          placeholder={t('btn.search', { defaultValue: 'Search' })}
          aria-label={t('btn.search', { defaultValue: 'Search' })}
          leftSection={<IconSearch size={14} />}
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          rightSection={filter ? <CloseButton size="xs" aria-label={t('btn.clear', { defaultValue: 'Clear' })} onClick={() => setFilter('')} /> : null}
        />
      </Box>
      <ScrollArea flex={1} type="auto" px="xs" pb="md">
        <NavLink
          component={Link}
          to="/sms/dashboard"
          label={t('common.dashboard', { defaultValue: 'Dashboard' })}
          leftSection={<IconLayoutDashboard size={18} stroke={1.6} />}
          active={pathname === '/sms/dashboard'}
          onClick={onNavigate}
        />
        <NavLink
          component={Link}
          to="/sms/schedule/table"
          label={t('common.schedule', { defaultValue: 'Schedule' })}
          leftSection={<IconCalendarEvent size={18} stroke={1.6} />}
          active={pathname.startsWith('/sms/schedule')}
          onClick={onNavigate}
        />
        {isLoading &&
          Array.from({ length: 6 }, (_, i) => <Skeleton key={i} h={28} my={6} radius="sm" />)}
        {visible.map((s) => {
          const Icon = menuIcon(s.icon);
          const expanded = needle ? true : !!opened[s.module];
          const toggle = () => setOpened((prev) => ({ ...prev, [s.module]: !expanded }));
          return (
            <NavLink
              key={s.module}
              // A group header is a button that shows or hides its pages: it takes the focus and says whether
              // it is open. Mantine renders it as an anchor without href, which the keyboard skips; Space is
              // handled by Mantine, Enter here (an anchor without href does not click on Enter).
              role="button"
              tabIndex={0}
              aria-expanded={expanded}
              onKeyDown={(e) => {
                if (e.key !== 'Enter') return;
                e.preventDefault();
                toggle();
              }}
              label={
                <Group gap={6} wrap="nowrap">
                  <span>{groupTitle(s)}</span>
                  {s.badge && (
                    <Badge size="xs" variant="light" color="orange">
                      {t('badge.new', { defaultValue: s.badge })}
                    </Badge>
                  )}
                </Group>
              }
              leftSection={<Icon size={18} stroke={1.6} />}
              opened={expanded}
              onChange={(o) => setOpened((prev) => ({ ...prev, [s.module]: o }))}
              childrenOffset={28}
              active={activeModule(pathname) === s.module}
              variant="subtle"
            >
              {s.children.map((i) => (
                <NavLink
                  key={`${i.page.page}/${i.mode}`}
                  component={Link}
                  to={itemLink(i)}
                  label={itemLabel(i, t)}
                  active={isItemActive(i, pathname)}
                  onClick={onNavigate}
                />
              ))}
              {s.links?.map((l) => (
                <NavLink key={l.to} component={Link} to={l.to} label={linkLabel(l)} active={isAdminLinkActive(l, pathname)} onClick={onNavigate} />
              ))}
            </NavLink>
          );
        })}
        {!isLoading && needle && visible.length === 0 && (
          <Text size="sm" c="dimmed" px="sm" py="xs">
            {t('form.no_options', { defaultValue: 'Nothing found' })}
          </Text>
        )}
      </ScrollArea>
    </Stack>
  );
}
