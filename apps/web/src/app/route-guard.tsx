import { useQuery } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useMemo, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { http, HttpError } from '../lib/http-client';
import { getSession, setDataChk, useSession } from '../lib/session-store';
import {
  buildPagePermission,
  PagePermissionContext,
  truthyFlag,
  type PermissionRow,
  type TableSetting,
} from './page-permission-context';
import { PageLoader } from './root-layout';

/** GET /api/user_permission/?usr_prms_usr_cd&usr_prms_pth_url&usr_sts=1: [permission], [table settings], [academic]. */
type PermissionResponse = [PermissionRow[]?, TableSetting[]?, unknown[]?];

/** dashboard and schedule/table open for every signed-in user (spec section 4). */
export function isOpenPage(module: string, page: string): boolean {
  return module === 'dashboard' || (module === 'schedule' && (page === 'table' || page === ''));
}

export function permissionPath(module: string, page: string): string {
  return page ? `sms/${module}/${page}` : `sms/${module}`;
}

export function permissionQueryKey(usrCd: number, instCd: number | undefined, path: string): unknown[] {
  return ['page-permission', usrCd, instCd ?? null, path];
}

/**
 * Loads the user's permission for one page and lets the page render only when it is allowed; otherwise
 * page_not_autherised, and login when the call itself fails (spec section 4).
 */
export function RouteGuard({ module, page, children }: { module: string; page: string; children: ReactNode }) {
  const { user, institute, isAdmin } = useSession();
  const path = permissionPath(module, page);
  const query = useQuery({
    queryKey: permissionQueryKey(user?.usr_cd ?? 0, institute?.inst_cd, path),
    enabled: !!user,
    queryFn: ({ signal }) =>
      http.get<PermissionResponse>('/api/user_permission/', {
        signal,
        query: { usr_prms_usr_cd: user?.usr_cd, usr_prms_pth_url: path, usr_sts: 1 },
      }),
  });

  const permission = useMemo(() => {
    const data = Array.isArray(query.data) ? query.data : undefined;
    const row = Array.isArray(data?.[0]) ? data[0][0] : undefined;
    const settings = Array.isArray(data?.[1]) ? data[1] : [];
    return { allowed: truthyFlag(row?.usr_prms_is_alw), value: buildPagePermission(module, page, row, settings, isAdmin) };
  }, [query.data, module, page, isAdmin]);

  const cancelled = query.error instanceof HttpError && query.error.cancelled;
  const { refetch } = query;
  useEffect(() => {
    if (!cancelled) return undefined;
    // Cancelled by a navigation within this page (table -> create): ask again rather than sign out. Deferred
    // so that a navigation away, which unmounts this guard, clears it before it runs.
    const timer = setTimeout(() => {
      if (getSession().user) void refetch();
    }, 0);
    return () => clearTimeout(timer);
  }, [cancelled, refetch]);

  // A layout effect runs before the page's own effects start their requests, so they carry this page's flag.
  useLayoutEffect(() => {
    setDataChk(permission.value.dataChk);
  }, [permission.value.dataChk]);

  if (!user) return <Navigate to="/login" replace />;
  if (query.isError && !cancelled) return <Navigate to="/login" replace />;
  if (!query.isSuccess) return <PageLoader />;
  if (!permission.allowed && !isOpenPage(module, page)) return <Navigate to="/page_not_autherised" replace />;
  return <PagePermissionContext.Provider value={permission.value}>{children}</PagePermissionContext.Provider>;
}
