/**
 * The spec's modules, pages and side-menu groups (section 2). Every API route maps to one of these pages,
 * and the user's permission row for that page decides what the route may do.
 */

export type ModuleName =
  | 'student'
  | 'employee'
  | 'class_section'
  | 'institute'
  | 'budget'
  | 'fee'
  | 'subject'
  | 'user_permission'
  | 'master'
  | 'transport'
  | 'features'
  | 'reports'
  | 'history'
  | 'exam'
  | 'library';

export type StandardButton = 'create' | 'edit' | 'delete' | 'view' | 'clone' | 'export' | 'import';
export const standardButtons: readonly StandardButton[] = ['create', 'edit', 'delete', 'view', 'clone', 'export', 'import'];
export const readOnlyButtons: readonly StandardButton[] = ['view', 'export'];

export interface PageDef {
  module: ModuleName;
  page: string;
  label: string;
  /** Entity whose grid and form this page shows; absent while the page is not built yet. */
  entity?: string;
  /** Buttons a permission row may grant on this page. */
  buttons: readonly string[];
  /** Shown in the side menu (the spec names some pages that are reachable only by URL). */
  menu: boolean;
  /**
   * The grid's View button reads so when the page's view mode is a workflow screen that does more than show
   * the row (the fee counter opened on the chosen student: 'Collect'). Still governed by the 'view' button.
   */
  viewLabel?: string;
  /**
   * One mode of the page with its own side-menu entry, shown to users granted that mode's button, even when
   * the page stays out of the menu: attendance is marked every morning from the menu, while its list of
   * earlier entries stays off the menu (by URL), as the spec has it.
   */
  menuEntry?: { mode: 'create'; label: string };
}

export interface MenuGroup {
  module: ModuleName;
  title: string;
  /** Tabler icon name, resolved by the web app. */
  icon: string;
  badge?: string;
}

export const menuGroups: readonly MenuGroup[] = [
  { module: 'student', title: 'Student', icon: 'school' },
  { module: 'employee', title: 'Employee', icon: 'users' },
  { module: 'class_section', title: 'Class/Section', icon: 'door' },
  { module: 'institute', title: 'Institute', icon: 'building' },
  { module: 'budget', title: 'Budget', icon: 'wallet' },
  { module: 'fee', title: 'Fee Master', icon: 'cash' },
  { module: 'subject', title: 'Subject', icon: 'book' },
  { module: 'user_permission', title: 'User Persmissions', icon: 'lock' },
  { module: 'master', title: 'Other Master', icon: 'list' },
  { module: 'transport', title: 'Transport', icon: 'bus' },
  { module: 'features', title: 'Features', icon: 'sparkles', badge: 'New' },
  { module: 'reports', title: 'Reports', icon: 'report' },
  { module: 'history', title: 'History', icon: 'history' },
  { module: 'exam', title: 'Exam', icon: 'certificate' },
  { module: 'library', title: 'Library', icon: 'books' },
];

const crud = standardButtons;

function p(module: ModuleName, page: string, label: string, entity?: string, extra: readonly string[] = [], base = crud, menu = true): PageDef {
  return { module, page, label, entity, buttons: [...base, ...extra], menu };
}

export const pages: readonly PageDef[] = [
  // student (issue 3)
  p('student', 'admission', 'Admission', 'student_admission', ['admit']),
  p('student', 'profile', 'Student Profile', 'student'),
  p('student', 'wallet', 'Wallet', 'wallet', ['topup', 'spend', 'refund']),
  // A wallet's statement: written by the wallet ledger only, opened from the Wallet page, out of the menu.
  p('student', 'wallet_transaction', 'Wallet Transactions', 'wallet_transaction', [], readOnlyButtons, false),
  p('student', 'certificate', 'Certificate', 'certificate', ['print']),
  p('student', 'promotion', 'Promotion', 'promotion', ['undo']),
  p('student', 'interchange', 'Interchange', 'student_interchange'),
  p('student', 'assignment', 'Assignment', 'student_assignment', ['take_action']),
  p('student', 'resource', 'Resource', 'student_resource'),
  p('student', 'daywise_attendance', 'Daywise Attendance', 'student_daywise_attendance_summary'),
  { ...p('student', 'attendance', 'Attendance', 'student_attendance', [], crud, false), menuEntry: { mode: 'create', label: 'Mark Attendance' } },
  p('student', 'leave_request', 'Leave Request', 'student_leave', ['take_action'], crud, false),
  p('student', 'discount', 'Discount', 'student_discount', [], crud, false),
  // Not named by the spec's page list, only by its list calls (/api/early_pickup/, /api/member_pickup/):
  // reachable by URL and grantable, but out of the menu like leave_request.
  p('student', 'early_pickup', 'Early Pickup', 'early_pickup', ['take_action'], crud, false),
  p('student', 'member_pickup', 'Member Pickup', 'member_pickup', ['take_action'], crud, false),
  // employee
  p('employee', 'profile', 'Employee Profile', 'employee', ['allow_login', 'reset_mfa_login', 'require_mfa_login']),
  p('employee', 'attendance', 'Attendance', 'employee_attendance'),
  p('employee', 'timetable', 'Timetable', 'employee_timetable'),
  p('employee', 'assignment', 'Assignment', 'user_assignment', ['take_action']),
  p('employee', 'resource', 'Resource', 'user_resource'),
  // class_section
  p('class_section', 'section', 'Section', 'section'),
  p('class_section', 'class', 'Class', 'class'),
  p('class_section', 'class_group', 'Class Group', 'class_group'),
  p('class_section', 'timetable', 'Timetable', 'section_timetable'),
  // institute
  p('institute', 'profile', 'Institute Profile', 'institute', ['active', 'settings']),
  p('institute', 'user_institute', 'Employee Mapping', 'user_institute', ['active']),
  p('institute', 'academic', 'Academic Year', 'academic', ['active']),
  p('institute', 'migration', 'Migration', 'migration', ['rollback']),
  p('institute', 'circular', 'Circular', 'circular', ['send_mail']),
  p('institute', 'holiday', 'Holiday', 'holiday'),
  // budget
  p('budget', 'category', 'Category', 'expense_category'),
  p('budget', 'sub_category', 'Sub Category', 'expense_sub_category'),
  p('budget', 'income_expense', 'Income / Expense', 'expense'),
  // fee
  p('fee', 'tender_type', 'Tender Type', 'tender_type', ['turn_on_off']),
  p('fee', 'fee_type', 'Fee Type', 'fee_type'),
  p('fee', 'fee_group', 'Fee Group', 'fee_group'),
  p('fee', 'fee', 'Fee Mapping', 'fee'),
  // The counter: its table finds the student (with what is overdue), its create mode is the collection screen.
  { ...p('fee', 'quick_fee_collection', 'Quick Fee Collection', 'student_detail', [], ['create', 'view', 'export']), viewLabel: 'Collect' },
  p('fee', 'fee_management', 'Fee Management', 'fee_collection', [], readOnlyButtons),
  p('fee', 'fee_collected', 'Fee Collected', 'collected_fee', ['cancel_bill', 'undo_cancel'], ['view', 'export']),
  // Written by the fee-cancel workflow (not built yet); standard buttons kept for it, as on promotion.
  p('fee', 'fee_cancel', 'Fee Cancel', 'cancel_fee'),
  p('fee', 'followup', 'Follow Up', 'fee_followup'),
  p('fee', 'request', 'Online Pay Request', 'online_payment_request', ['take_action']),
  // 'create' is collecting a row's dues (the counter's collect route accepts this page with it).
  { ...p('fee', 'academic_fee_collect', 'Academic Fee Collect', 'academic_fee_collect', [], ['view', 'export', 'create'], false), viewLabel: 'Collect' },
  // subject
  p('subject', 'subject', 'Subject', 'subject'),
  p('subject', 'subject_detail', 'Subject Mapping', 'subject_detail'),
  // user_permission
  p('user_permission', 'permission', 'Permission', 'user_permission', [], ['create', 'edit', 'delete', 'view', 'export']),
  p('user_permission', 'group', 'Group', 'user_permission_group'),
  p('user_permission', 'mapping', 'Mapping', 'user_permission_mapping'),
  // master
  p('master', 'backup', 'Backup', 'backup'),
  p('master', 'religion', 'Religion', 'religion'),
  p('master', 'community', 'Community', 'community'),
  p('master', 'designation', 'Designation', 'designation'),
  p('master', 'role', 'Role', 'role'),
  p('master', 'language', 'Language', 'language'),
  p('master', 'leave_type', 'Leave Type', 'leavetype'),
  p('master', 'documenttype', 'Document Type', 'document_type'),
  // transport
  p('transport', 'bus_detail', 'Bus Detail', 'bus'),
  p('transport', 'bus_mapping', 'Bus Mapping', 'bus_mapping'),
  p('transport', 'tracking', 'Tracking', 'bus_trip', ['take_action']),
  // features
  p('features', 'widget', 'Widget', 'widget'),
  p('features', 'quick_menu', 'Quick Menu', 'quick_menu'),
  p('features', 'notification', 'Notification', 'notification'),
  p('features', 'mob_notification', 'Mobile Notification', 'mob_notification', ['take_action', 'send_to_parents', 'retry_failed']),
  // reports
  p('reports', 'fee_report', 'Fee Report', 'fee_report', [], readOnlyButtons),
  p('reports', 'overall_budget', 'Overall Budget', 'overall_budget', [], readOnlyButtons),
  p('reports', 'transport_budget', 'Transport Budget', 'transport_budget', [], readOnlyButtons),
  p('reports', 'custom_report', 'Custom Report', 'custom_report'),
  p('reports', 'group', 'Group', 'report'),
  // history
  p('history', 'login', 'Login History', 'login_history', [], readOnlyButtons),
  p('history', 'action', 'Action History', 'action_history', [], readOnlyButtons),
  // Not in the spec's list: issue 11 asks for a screen where an administrator sees and lifts sign-in waits.
  p('history', 'login_lock', 'Sign-in Locks', 'login_lock', ['lift_login'], readOnlyButtons),
  // exam
  p('exam', 'examtype', 'Exam Type', 'exam_type', ['take_action']),
  p('exam', 'exam', 'Exam Schedule', 'exam'),
  p('exam', 'mark', 'Mark', 'mark'),
  // Its table is the mark list report (POST /api/mark/list), its create mode the marks entry sheet; the
  // student_mark rows are written by that sheet only, so there is no delete, clone or import.
  p('exam', 'mark_list', 'Mark List', 'student_mark', [], ['view', 'export', 'create', 'edit']),
  // library
  p('library', 'book', 'Book', 'book'),
  p('library', 'category', 'Category', 'book_category'),
  // Issue, return and stock are written by the issue/return workflow (not built yet), which will use the
  // standard buttons kept here (an ADMIN's existing rows never gain buttons added later).
  p('library', 'book_checkout', 'Book Issue', 'book_checkout'),
  p('library', 'book_checkin', 'Book Return', 'book_checkin'),
  p('library', 'book_checkinout_summary', 'Stock', 'book_checkinout_summary'),
  p('library', 'book_checkinout_summary_staff', 'Staff Stock', 'staff_book_stock', [], readOnlyButtons),
];

/** Pages every signed-in user may open, whatever their permission rows say (spec section 4). */
export const openPages = ['dashboard', 'schedule'] as const;

export const pagePath = (pg: Pick<PageDef, 'module' | 'page'>): string => `sms/${pg.module}/${pg.page}`;

/** A page is live once it has an entity; the others are listed so the menu and grants know them later. */
export const isLive = (pg: PageDef): boolean => pg.entity !== undefined;

export const livePages = (): PageDef[] => pages.filter(isLive);

export function findPage(module: string, page: string): PageDef | undefined {
  return pages.find((pg) => pg.module === module && pg.page === page);
}

export const pagesOfEntity = (entityName: string): PageDef[] => pages.filter((pg) => pg.entity === entityName);

/** Admin = role name contains ADMIN or HEAD, case-insensitive (spec section 6). */
export const isAdminRole = (roleName: string | null | undefined): boolean => /admin|head/i.test(roleName ?? '');

/** Buttons whose name contains 'login' are for admins only (spec section 6). */
export const isAdminOnlyButton = (button: string): boolean => button.toLowerCase().includes('login');

export const parseButtons = (btns: string | null | undefined): string[] =>
  (btns ?? '')
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
