import { menuGroups, type PageDef } from '@campus/entities/pages';
import { Badge, Box, CloseButton, Group, NavLink, ScrollArea, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconCalendarEvent, IconLayoutDashboard, IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { menuIcon } from './menu-icons';
import { useAllowedPages } from './use-allowed-pages';

export interface MenuSection {
  module: string;
  title: string;
  icon: string;
  badge?: string;
  children: PageDef[];
}

/** Groups in the spec's order, each with its allowed live pages; groups left empty are hidden. */
export function menuSections(allowed: readonly PageDef[]): MenuSection[] {
  return menuGroups
    .map((g) => ({ module: g.module, title: g.title, icon: g.icon, badge: g.badge, children: allowed.filter((p) => p.module === g.module) }))
    .filter((s) => s.children.length > 0);
}

export const pageLink = (p: Pick<PageDef, 'module' | 'page'>): string => `/sms/${p.module}/${p.page}/table`;

function activeModule(pathname: string): string | undefined {
  const [, sms, module] = pathname.split('/');
  return sms === 'sms' ? module : undefined;
}

export function SideMenu({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { pages, isLoading } = useAllowedPages();
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

  const sections = useMemo(() => menuSections(pages), [pages]);
  const needle = filter.trim().toLowerCase();
  const pageLabel = (p: PageDef): string => t(`page.${p.module}.${p.page}`, { defaultValue: p.label });
  const groupTitle = (s: MenuSection): string => t(`menu.${s.module}`, { defaultValue: s.title });

  const visible = needle
    ? sections
        .map((s) => ({
          ...s,
          children: groupTitle(s).toLowerCase().includes(needle) ? s.children : s.children.filter((p) => pageLabel(p).toLowerCase().includes(needle)),
        }))
        .filter((s) => s.children.length > 0)
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
          rightSection={filter ? <CloseButton size="xs" aria-label="Clear" onClick={() => setFilter('')} /> : null}
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
          return (
            <NavLink
              key={s.module}
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
              opened={needle ? true : !!opened[s.module]}
              onChange={(o) => setOpened((prev) => ({ ...prev, [s.module]: o }))}
              childrenOffset={28}
              active={activeModule(pathname) === s.module}
              variant="subtle"
            >
              {s.children.map((p) => (
                <NavLink
                  key={p.page}
                  component={Link}
                  to={pageLink(p)}
                  label={pageLabel(p)}
                  active={pathname.startsWith(`/sms/${p.module}/${p.page}/`)}
                  onClick={onNavigate}
                />
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
