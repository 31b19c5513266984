import { lazy } from 'react';
import type { WorkflowForms, WorkflowTables, WorkflowViews } from '../engine/entity-page';

/** Pages whose create/update screen is a hand-written workflow; each loads only when opened. */
export const workflowForms: WorkflowForms = {
  'fee/quick_fee_collection': lazy(() => import('../workflows/collect-fee/collect-fee-page').then((m) => ({ default: m.CollectFeePage }))),
  'user_permission/permission': lazy(() =>
    import('../workflows/permission-editor/permission-editor-page').then((m) => ({ default: m.PermissionEditorPage })),
  ),
  'student/attendance': lazy(() =>
    import('../workflows/mark-attendance/mark-attendance-page').then((m) => ({ default: m.MarkAttendancePage })),
  ),
  'student/interchange': lazy(() =>
    import('../workflows/interchange-students/interchange-students-page').then((m) => ({ default: m.InterchangeStudentsPage })),
  ),
  'student/promotion': lazy(() =>
    import('../workflows/promote-students/promote-students-page').then((m) => ({ default: m.PromoteStudentsPage })),
  ),
  'reports/custom_report': lazy(() =>
    import('../workflows/custom-report/custom-report-editor-page').then((m) => ({ default: m.CustomReportEditorPage })),
  ),
  'exam/mark_list': lazy(() => import('../workflows/enter-marks/enter-marks-page').then((m) => ({ default: m.EnterMarksPage }))),
  // The library desk: issues and returns are written once, never edited.
  'library/book_checkout': Object.assign(
    lazy(() => import('../workflows/lend-books/lend-books-page').then((m) => ({ default: m.IssueBooksPage }))),
    { createOnly: true },
  ),
  'library/book_checkin': Object.assign(
    lazy(() => import('../workflows/lend-books/lend-books-page').then((m) => ({ default: m.ReturnBooksPage }))),
    { createOnly: true },
  ),
  'institute/migration': lazy(() => import('../workflows/roll-year-over/roll-year-over-page').then((m) => ({ default: m.RollYearOverPage }))),
  // A notification rule is built from choices (entity, conditions, date window), never typed as JSON.
  'features/notification': lazy(() =>
    import('../workflows/notification-rules/notification-rule-editor-page').then((m) => ({ default: m.NotificationRuleEditorPage })),
  ),
};

/** Pages whose view mode is a hand-written screen: a custom report's view runs it. */
export const workflowViews: WorkflowViews = {
  'reports/custom_report': lazy(() => import('../workflows/custom-report/custom-report-run-page').then((m) => ({ default: m.CustomReportRunPage }))),
  // The fee counter opened on the chosen row's student (academic: in that row's earlier year); a bill's receipt.
  'fee/quick_fee_collection': lazy(() => import('../workflows/collect-fee/collect-fee-views').then((m) => ({ default: m.CollectFromStudentPage }))),
  'fee/academic_fee_collect': lazy(() => import('../workflows/collect-fee/collect-fee-views').then((m) => ({ default: m.CollectAcademicDuesPage }))),
  'fee/fee_collected': lazy(() => import('../workflows/collect-fee/collect-fee-views').then((m) => ({ default: m.BillReceiptPage }))),
};

/** Pages whose table mode is a hand-written screen: the mark list is computed per exam, a column per subject. */
export const workflowTables: WorkflowTables = {
  'exam/mark_list': lazy(() => import('../workflows/enter-marks/mark-list-page').then((m) => ({ default: m.MarkListPage }))),
  // The backup rows, then their runs and 'Back up now'.
  'master/backup': lazy(() => import('../workflows/backup/backup-table-page').then((m) => ({ default: m.BackupTablePage }))),
};
