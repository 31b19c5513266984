import { hasRoute } from '@campus/entities/define';
import { findPage } from '@campus/entities/pages';
import { findEntity } from '@campus/entities/registry';
import { Skeleton } from '@mantine/core';
import { lazy, Suspense, type ComponentType, type JSX } from 'react';
import { Navigate, useParams } from 'react-router';
import { isOwnProfilePath, usePagePermission } from '../app/page-permission-context';
import { useSession } from '../lib/session-store';
import { EntityListPage } from './entity-list-page';
import { modePath, parseMode } from './entity-mode';

// A list page needs neither the form's fields (dates, selects, uploads) nor the import screen (ExcelJS):
// they load when a form or the import is opened, so the first list comes up sooner.
const EntityForm = lazy(() => import('./entity-form').then((m) => ({ default: m.EntityForm })));
const ImportPage = lazy(() => import('./import-page').then((m) => ({ default: m.ImportPage })));

/**
 * Hand-written create/update screens by 'module/page', supplied by the app so the engine imports no workflow.
 * A screen marked createOnly replaces New only: its rows are never edited (a book issue), so no Edit is offered.
 */
export type WorkflowForms = Readonly<Record<string, ComponentType & { createOnly?: boolean }>>;
/** Hand-written view screens by 'module/page' (a saved report's view mode runs it), supplied by the app too. */
export type WorkflowViews = Readonly<Record<string, ComponentType>>;
/**
 * Hand-written table-mode screens by 'module/page': a report computed per request (the mark list, with a
 * column per subject of the chosen exam) that the generic list cannot show. Supplied by the app too.
 */
export type WorkflowTables = Readonly<Record<string, ComponentType>>;

const NOT_FOUND = '/page_not_found';

/** While a lazily loaded screen arrives, a placeholder of its size, inside the shell. */
function Loading({ children }: { children: JSX.Element }): JSX.Element {
  return <Suspense fallback={<Skeleton height={320} radius="md" />}>{children}</Suspense>;
}
const NOT_AUTHORISED = '/page_not_autherised';

/**
 * Route element of sms/:module/:page/*: finds the page and its entity in the declarations and shows the
 * list, a form or the import screen for the mode in the rest of the path.
 */
export function EntityPage({
  workflowForms = {},
  workflowViews = {},
  workflowTables = {},
  ownProfileExtras: Extras,
}: {
  workflowForms?: WorkflowForms;
  workflowViews?: WorkflowViews;
  workflowTables?: WorkflowTables;
  /** Cards shown under one's own row of a self-service entity (My Profile: two-step sign-in), from the app. */
  ownProfileExtras?: ComponentType;
}): JSX.Element {
  const params = useParams();
  const { can, selfOnly } = usePagePermission();
  const { user } = useSession();
  const module = params.module ?? '';
  const pageName = params.page ?? '';
  const rest = params['*'] ?? '';

  const page = findPage(module, pageName);
  const entity = page?.entity ? findEntity(page.entity) : undefined;
  if (!page || !entity) return <Navigate to={NOT_FOUND} replace />;
  // The bare page path (e.g. from a menu link) opens its table.
  if (rest.replace(/\/+$/, '') === '') return <Navigate to={modePath(page.module, page.page, 'table')} replace />;

  const mode = parseMode(rest);
  if (!mode) return <Navigate to={NOT_FOUND} replace />;

  const Workflow = workflowForms[`${page.module}/${page.page}`];
  const editsWithWorkflow = !!Workflow && Workflow.createOnly !== true;
  const denied = <Navigate to={NOT_AUTHORISED} replace />;
  const missing = <Navigate to={NOT_FOUND} replace />;
  const workflow = Workflow ? (
    <Suspense fallback={<Skeleton height={320} radius="md" />}>
      <Workflow />
    </Suspense>
  ) : null;
  const View = workflowViews[`${page.module}/${page.page}`];
  const Table = workflowTables[`${page.module}/${page.page}`];

  // The guard has checked the page; a mode that writes also needs its button, as the server will check.
  // My Profile (the user's own row of a self-service entity) opens in view and update without them.
  const own = (mode.kind === 'update' || mode.kind === 'view') && isOwnProfilePath(entity.name, `${mode.kind}/${mode.id}`, user?.usr_cd);
  if (selfOnly && !own) return denied;
  switch (mode.kind) {
    case 'table':
      if (Table) {
        return (
          <Suspense fallback={<Skeleton height={320} radius="md" />}>
            <Table />
          </Suspense>
        );
      }
      return <EntityListPage key={entity.name} entity={entity} page={page} searchMode={mode.search} hasFormOverride={!!Workflow} editOverride={editsWithWorkflow} />;
    case 'create':
      if (!can('create')) return denied;
      if (workflow) return workflow;
      return hasRoute(entity, 'create') ? <Loading><EntityForm key={`${entity.name}:create`} entity={entity} page={page} mode="create" /></Loading> : missing;
    case 'update':
      if (!can('edit') && !own) return denied;
      if (workflow && editsWithWorkflow && can('edit')) return workflow;
      if (!hasRoute(entity, 'update')) return missing;
      return (
        <Loading>
          <>
            <EntityForm key={`${entity.name}:update:${mode.id}`} entity={entity} page={page} mode="update" id={mode.id} />
            {own && Extras && <Extras />}
          </>
        </Loading>
      );
    case 'clone':
      if (!can('create')) return denied;
      return hasRoute(entity, 'create') && hasRoute(entity, 'get') ? (
        <Loading>
          <EntityForm key={`${entity.name}:clone:${mode.id}`} entity={entity} page={page} mode="clone" id={mode.id} />
        </Loading>
      ) : (
        missing
      );
    case 'view':
      if (!can('view') && !can('edit') && !own) return denied;
      if (View) {
        return (
          <Suspense fallback={<Skeleton height={320} radius="md" />}>
            <View />
          </Suspense>
        );
      }
      return hasRoute(entity, 'get') ? (
        <Loading>
          <EntityForm key={`${entity.name}:view:${mode.id}`} entity={entity} page={page} mode="view" id={mode.id} updatable={hasRoute(entity, 'update') || editsWithWorkflow} />
        </Loading>
      ) : (
        missing
      );
    case 'import':
      if (!can('import')) return denied;
      return hasRoute(entity, 'import') ? (
        <Loading>
          <ImportPage key={`${entity.name}:import`} entity={entity} page={page} />
        </Loading>
      ) : (
        missing
      );
  }
}
