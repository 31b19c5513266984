import { isView } from '@campus/entities/define';
import { entities } from '@campus/entities/registry';
import { academicFeeCollectView } from './views/academic-fee-collect.view';
import { feeCollectionView } from './views/fee-collection.view';
import { feePositionCalcView, feePositionDueCalcView, feePositionTermCalcView } from './views/fee-position.view';
import { feeReportView } from './views/fee-report.view';
import { loginLockView } from './views/login-lock.view';
import { overallBudgetView } from './views/overall-budget.view';
import { studentDetailView } from './views/student-detail.view';
import { studentFeeLineView } from './views/student-fee-line.view';
import { staffBookStockView } from './views/staff-book-stock.view';
import { transportBudgetView } from './views/transport-budget.view';

/**
 * The SELECT of every view entity (storage: 'view'), by entity name. Each lives beside its subject in
 * db/views/<entity>.view.ts; the migration generator creates the views from here and recreates them all
 * whenever the schema or one of them changes, so a view never points at a column that is gone.
 */
const selects: Record<string, string> = {
  fee_collection: feeCollectionView,
  student_detail: studentDetailView,
  fee_report: feeReportView,
  academic_fee_collect: academicFeeCollectView,
  overall_budget: overallBudgetView,
  transport_budget: transportBudgetView,
  staff_book_stock: staffBookStockView,
  login_lock: loginLockView,
};

/** Views no entity shows, that entity views share (created first, in this order). */
const baseViews: ViewDefinition[] = [
  { table: 'student_fee_line_v', select: studentFeeLineView.trim() },
  // What the stored fee positions must hold (fee-position.ddl.ts): the triggers and the rebuild read these.
  { table: 'fee_position_due_calc_v', select: feePositionDueCalcView.trim() },
  { table: 'fee_position_calc_v', select: feePositionCalcView.trim() },
  { table: 'fee_position_term_calc_v', select: feePositionTermCalcView.trim() },
];

export interface ViewDefinition {
  /** Database name of the view (the entity's table). */
  table: string;
  select: string;
}

/** The base views, then the entity views in registry order (a view may select from one before it). */
export function viewDefinitions(): ViewDefinition[] {
  const views = entities.filter(isView);
  const missing = views.filter((e) => !Object.hasOwn(selects, e.name)).map((e) => e.name);
  const stray = Object.keys(selects).filter((n) => !views.some((e) => e.name === n));
  if (missing.length || stray.length) {
    throw new Error(`View SQL out of step with the declarations: missing ${missing.join(', ') || '-'}; not a view ${stray.join(', ') || '-'}`);
  }
  return [...baseViews, ...views.map((e) => ({ table: e.table, select: selects[e.name].trim() }))];
}
