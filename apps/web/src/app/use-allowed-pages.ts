import { isLive, pages, parseButtons, type PageDef } from '@campus/entities/pages';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { http } from '../lib/http-client';
import { useSession } from '../lib/session-store';
import { truthyFlag, type PermissionRow } from './page-permission-context';
import { USER_DETAIL_KEY } from './query-client';

interface UserDetail {
  user?: unknown;
  permissions?: PermissionRow[];
}

export const pageKey = (module: string, page: string): string => `${module}/${page}`;

/** module/page of a permission row, by its module and page or else by its path (sms/module/page). */
function rowKey(p: PermissionRow): string | undefined {
  if (p.usr_prms_mdl && p.usr_prms_page) return pageKey(p.usr_prms_mdl, p.usr_prms_page);
  const [, module, page] = (p.usr_prms_pth_url ?? '').replace(/^\//, '').split('/');
  return module && page ? pageKey(module, page) : undefined;
}

/** The set of module/page keys a permission list allows. */
export function allowedKeys(permissions: readonly PermissionRow[]): Set<string> {
  return new Set(allowedButtons(permissions).keys());
}

/** The buttons each allowed page grants (usr_prms_btns), by module/page key. */
export function allowedButtons(permissions: readonly PermissionRow[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of permissions) {
    const key = truthyFlag(p.usr_prms_is_alw) ? rowKey(p) : undefined;
    if (key) out.set(key, [...(out.get(key) ?? []), ...parseButtons(p.usr_prms_btns)]);
  }
  return out;
}

/** A side-menu entry: a page's list, or the one mode of a page that has its own entry (pages.ts menuEntry). */
export interface MenuItem {
  page: PageDef;
  mode: 'table' | 'create';
}

/**
 * The side menu's entries in pages.ts order: the list of every live, allowed menu page, and the menuEntry
 * of a live page for those granted that mode's button (Mark Attendance needs 'create' on student attendance).
 */
export function menuItems(buttons: ReadonlyMap<string, readonly string[]>): MenuItem[] {
  const items: MenuItem[] = [];
  for (const p of pages) {
    const granted = buttons.get(pageKey(p.module, p.page));
    if (!isLive(p) || !granted) continue;
    if (p.menu) items.push({ page: p, mode: 'table' });
    if (p.menuEntry && granted.includes(p.menuEntry.mode)) items.push({ page: p, mode: p.menuEntry.mode });
  }
  return items;
}

/** Menu entries of the signed-in user (GET /api/user_permission/userDetail), for the side menu and the landing tiles. */
export function useAllowedPages(): { items: MenuItem[]; isLoading: boolean; isError: boolean } {
  const { user, institute } = useSession();
  const query = useQuery({
    queryKey: [USER_DETAIL_KEY, user?.usr_cd ?? null, institute?.inst_cd ?? null],
    enabled: !!user,
    staleTime: 5 * 60_000,
    // The menu outlives every page: a navigation must not abort it (the shell would show no modules).
    queryFn: ({ signal }) => http.get<UserDetail>('/api/user_permission/userDetail', { signal, keepOnNavigation: true }),
  });
  const items = useMemo(() => menuItems(allowedButtons(query.data?.permissions ?? [])), [query.data]);
  return { items, isLoading: query.isPending && query.fetchStatus !== 'idle', isError: query.isError };
}
