import { isAdminOnlyButton, parseButtons } from '@campus/entities/pages';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { truthyFlag, type PermissionRow } from '../../app/page-permission-context';
import { USER_DETAIL_KEY } from '../../app/query-client';
import { allowedKeys, pageKey } from '../../app/use-allowed-pages';
import { http } from '../../lib/http-client';
import { isAdmin, useSession } from '../../lib/session-store';

export interface MyPages {
  /** module/page keys the user may open. */
  allowed: ReadonlySet<string>;
  /** Buttons the user holds on a page ('login' ones for admins only, as everywhere). */
  can: (module: string, page: string, button: string) => boolean;
  isLoading: boolean;
}

/**
 * The signed-in user's pages and buttons in the working institute: the shell's own user-detail call (same
 * query key, so it is read from the cache), not a new request. A report runs under one of these pages.
 */
export function useMyPages(): MyPages {
  const { user, institute } = useSession();
  const query = useQuery({
    queryKey: [USER_DETAIL_KEY, user?.usr_cd ?? null, institute?.inst_cd ?? null],
    enabled: !!user,
    staleTime: 5 * 60_000,
    queryFn: ({ signal }) => http.get<{ permissions?: PermissionRow[] }>('/api/user_permission/userDetail', { signal, keepOnNavigation: true }),
  });
  return useMemo(() => {
    const rows = query.data?.permissions ?? [];
    const allowed = allowedKeys(rows);
    const admin = isAdmin(user);
    const can = (module: string, page: string, button: string): boolean => {
      const row = rows.find((r) => r.usr_prms_mdl === module && r.usr_prms_page === page && truthyFlag(r.usr_prms_is_alw));
      return allowed.has(pageKey(module, page)) && parseButtons(row?.usr_prms_btns).includes(button) && (admin || !isAdminOnlyButton(button));
    };
    return { allowed, can, isLoading: query.isPending && query.fetchStatus !== 'idle' };
  }, [query.data, query.isPending, query.fetchStatus, user]);
}
