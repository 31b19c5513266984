import { findPage } from '@campus/entities/pages';
import { lazy } from 'react';
import { Navigate, useParams } from 'react-router';
import { RouteGuard } from './route-guard';
import { workflowForms, workflowTables, workflowViews } from './workflow-forms';

// The engine pulls in AG Grid; load it only when an entity page is opened.
// My Profile's own cards (two-step sign-in), loaded with the page they sit under.
const ProfileCards = lazy(() => import('./profile-cards').then((m) => ({ default: m.ProfileCards })));
const EntityPage = lazy(() => import('../engine/entity-page').then((m) => ({ default: m.EntityPage })));

/** sms/:module/:page/*: a page pages.ts knows, behind its permission. */
export function EntityRoute() {
  const { module = '', page = '', '*': rest = '' } = useParams();
  if (!findPage(module, page)) return <Navigate to="/page_not_found" replace />;
  return (
    // Keyed so a move to another page never shows the previous page's permission for a moment.
    <RouteGuard key={`${module}/${page}`} module={module} page={page} rest={rest}>
      <EntityPage workflowForms={workflowForms} workflowViews={workflowViews} workflowTables={workflowTables} ownProfileExtras={ProfileCards} />
    </RouteGuard>
  );
}
