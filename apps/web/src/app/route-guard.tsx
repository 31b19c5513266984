import { findEntity } from '@campus/entities/registry';
import { findPage, type PageDef } from '@campus/entities/pages';
import { Alert } from '@mantine/core';
import { IconCalendarOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { http, HttpError } from '../lib/http-client';
import { getSession, setDataChk, useSession } from '../lib/session-store';
import {
  buildPagePermission,
  isOwnProfilePath,
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

/**
 * Only pages whose entity lives per academic year need one chosen; institute-scoped pages (masters, employees,
 * permissions, Institute > Academic Year itself) must stay reachable while an institute has no active year,
 * or nobody could create or reopen one. Pages not built yet have no entity and need nothing yet.
 */
export function needsAcademicYear(page: Pick<PageDef, 'entity'> | undefined): boolean {
  return page?.entity !== undefined && findEntity(page.entity)?.scope === 'academic-year';
}

/** What to tell a user who has no academic year to work in (an institute with none active). */
export function NoActiveYearHint() {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" variant="light" icon={<IconCalendarOff size={18} />} data-testid="no-active-year">
      {t('common.noActiveYear', { defaultValue: 'No active academic year: open Institute > Academic Year to add or activate one' })}
    </Alert>
  );
}

export function permissionPath(module: string, page: string): string {
  return page ? `sms/${module}/${page}` : `sms/${module}`;
}

export function permissionQueryKey(usrCd: number, instCd: number | undefined, path: string): unknown[] {
  return ['page-permission', usrCd, instCd ?? null, path];
}

/** The permission query of one page: the guard's and the start of a visit's (list-route-prefetch.ts). */
export function permissionQuery(usrCd: number, instCd: number | undefined, path: string) {
  return {
    queryKey: permissionQueryKey(usrCd, instCd, path),
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      http.get<PermissionResponse>('/api/user_permission/', { signal, query: { usr_prms_usr_cd: usrCd, usr_prms_pth_url: path, usr_sts: 1 } }),
  };
}

/** Whether a permission answer lets the page render as itself (not page_not_autherised, not self only). */
export function permissionAllows(data: PermissionResponse | undefined): { allowed: boolean; dataChk: boolean } {
  const row = Array.isArray(data) && Array.isArray(data[0]) ? data[0][0] : undefined;
  return { allowed: truthyFlag(row?.usr_prms_is_alw), dataChk: truthyFlag(row?.usr_need_data_chk) };
}

/**
 * Loads the user's permission for one page and lets the page render only when it is allowed; otherwise
 * page_not_autherised, and login when the call itself fails (spec section 4).
 */
export function RouteGuard({ module, page, rest = '', children }: { module: string; page: string; rest?: string; children: ReactNode }) {
  const { user, institute, year, isAdmin } = useSession();
  const path = permissionPath(module, page);
  const query = useQuery({ ...permissionQuery(user?.usr_cd ?? 0, institute?.inst_cd, path), enabled: !!user });

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
  if (!permission.allowed && !isOpenPage(module, page)) {
    if (!isOwnProfilePath(findPage(module, page)?.entity, rest, user.usr_cd)) return <Navigate to="/page_not_autherised" replace />;
    return <PagePermissionContext.Provider value={{ ...permission.value, selfOnly: true }}>{children}</PagePermissionContext.Provider>;
  }
  // Its requests would go out with an empty acdm_cd: explain what is missing instead.
  if (!year && needsAcademicYear(findPage(module, page))) return <NoActiveYearHint />;
  return <PagePermissionContext.Provider value={permission.value}>{children}</PagePermissionContext.Provider>;
}
