import { findPage } from '@campus/entities/pages';
import { findEntity } from '@campus/entities/registry';
import { ownListQuery } from '../engine/use-entity-list';
import type { ListResponse } from '../engine/entity-api';
import { http } from '../lib/http-client';
import { getSession, setAcademicYear } from '../lib/session-store';
import { queryClient } from './query-client';
import { permissionAllows, permissionPath, permissionQuery } from './route-guard';
import { academicYearsQuery, validYear, yearRefs } from './use-academic-years';
import { workflowTables } from './workflow-forms';

/**
 * A visit that starts on a list page (a reload, a link, a bookmark) asks the server, while the page's code is
 * still arriving, what the page would only ask once rendered, one after the other: the active years (which
 * fix the year every later call carries), then the page's permission, then its first rows. Each answer goes
 * into the query cache under the key the shell, the guard and the list use, so they find it there instead of
 * asking again. Nothing is shown from here: a refusal or a failure is left for the page to meet as before.
 */
export async function prefetchListRoute(module: string, pageName: string, search: string): Promise<void> {
  const page = findPage(module, pageName);
  const entity = page?.entity ? findEntity(page.entity) : undefined;
  const { user, institute } = getSession();
  if (!page || !entity || !user || !institute) return;

  const years = yearRefs(await queryClient.fetchQuery(academicYearsQuery(user.usr_cd, institute.inst_cd)));
  // The shell would make the same choice once rendered; made now, the calls below carry the right year and
  // are not dropped from the cache by the change (query-client.ts clears answers of another year).
  if (getSession().user !== user || getSession().institute !== institute) return;
  setAcademicYear(validYear(years, getSession().year));
  const year = getSession().year;

  const permission = permissionAllows(await queryClient.fetchQuery(permissionQuery(user.usr_cd, institute.inst_cd, permissionPath(module, pageName))));
  // A page only partly allowed (one's own profile), a computed table (workflowTables) or a page with no year
  // to read in shows something else than the entity's list: it makes its own calls.
  if (!permission.allowed || workflowTables[`${page.module}/${page.page}`] || (entity.scope === 'academic-year' && !year)) return;
  const session = getSession();
  if (session.user !== user || session.year !== year) return;
  const list = ownListQuery(entity, new URLSearchParams(search));
  await queryClient.prefetchQuery({
    queryKey: list.queryKey,
    // As the list's own query asks it; the data_chk header (informative: the server reads the permission
    // itself) is the page's, which the guard sets only once it renders.
    queryFn: ({ signal }) => http.get<ListResponse>(list.url, { query: list.query, signal, headers: { data_chk: permission.dataChk ? '1' : '0' } }),
    staleTime: 10_000,
    retry: false,
  });
}
