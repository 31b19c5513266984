import { isLive, pages, type PageDef } from '@campus/entities/pages';
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

/** The set of module/page keys a permission list allows. */
export function allowedKeys(permissions: readonly PermissionRow[]): Set<string> {
  const keys = new Set<string>();
  for (const p of permissions) {
    if (!truthyFlag(p.usr_prms_is_alw)) continue;
    if (p.usr_prms_mdl && p.usr_prms_page) keys.add(pageKey(p.usr_prms_mdl, p.usr_prms_page));
    else if (p.usr_prms_pth_url) {
      const [, module, page] = p.usr_prms_pth_url.replace(/^\//, '').split('/');
      if (module && page) keys.add(pageKey(module, page));
    }
  }
  return keys;
}

/** Menu pages that are live and allowed, in pages.ts order. */
export function menuPages(allowed: ReadonlySet<string>): PageDef[] {
  return pages.filter((p) => p.menu && isLive(p) && allowed.has(pageKey(p.module, p.page)));
}

/** Pages the signed-in user may open (GET /api/user_permission/userDetail), for the menu and the landing tiles. */
export function useAllowedPages(): { pages: PageDef[]; isLoading: boolean; isError: boolean } {
  const { user, institute } = useSession();
  const query = useQuery({
    queryKey: [USER_DETAIL_KEY, user?.usr_cd ?? null, institute?.inst_cd ?? null],
    enabled: !!user,
    staleTime: 5 * 60_000,
    // The menu outlives every page: a navigation must not abort it (the shell would show no modules).
    queryFn: ({ signal }) => http.get<UserDetail>('/api/user_permission/userDetail', { signal, keepOnNavigation: true }),
  });
  const allowed = useMemo(() => menuPages(allowedKeys(query.data?.permissions ?? [])), [query.data]);
  return { pages: allowed, isLoading: query.isPending && query.fetchStatus !== 'idle', isError: query.isError };
}
