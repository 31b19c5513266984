import { isView } from '@campus/entities/define';
import { entities } from '@campus/entities/registry';
import { overallBudgetView } from './views/overall-budget.view';
import { staffBookStockView } from './views/staff-book-stock.view';
import { transportBudgetView } from './views/transport-budget.view';

/**
 * The SELECT of every view entity (storage: 'view'), by entity name. Each lives beside its subject in
 * db/views/<entity>.view.ts; the migration generator creates the views from here and recreates them all
 * whenever the schema or one of them changes, so a view never points at a column that is gone.
 */
const selects: Record<string, string> = {
  overall_budget: overallBudgetView,
  transport_budget: transportBudgetView,
  staff_book_stock: staffBookStockView,
};

export interface ViewDefinition {
  /** Database name of the view (the entity's table). */
  table: string;
  select: string;
}

/** The views in registry order (a view may select from a view declared before it). */
export function viewDefinitions(): ViewDefinition[] {
  const views = entities.filter(isView);
  const missing = views.filter((e) => !Object.hasOwn(selects, e.name)).map((e) => e.name);
  const stray = Object.keys(selects).filter((n) => !views.some((e) => e.name === n));
  if (missing.length || stray.length) {
    throw new Error(`View SQL out of step with the declarations: missing ${missing.join(', ') || '-'}; not a view ${stray.join(', ') || '-'}`);
  }
  return views.map((e) => ({ table: e.table, select: selects[e.name].trim() }));
}
