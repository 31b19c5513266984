import { hasRoute, isView, type AnyEntity, type Field, type LinkField, type OwnershipOfRecord } from './define';
import { expenseCategory } from './budget/expense-category.entity';
import { expenseSubCategory } from './budget/expense-sub-category.entity';
import { classGroup } from './class-section/class-group.entity';
import { classEntity } from './class-section/class.entity';
import { section } from './class-section/section.entity';
import { feeGroup } from './fee/fee-group.entity';
import { feeType } from './fee/fee-type.entity';
import { tenderType } from './fee/tender-type.entity';
import { examType } from './exam/exam-type.entity';
import { exam } from './exam/exam.entity';
import { mark } from './exam/mark.entity';
import { studentMark } from './exam/student-mark.entity';
import { quickMenu } from './features/quick-menu.entity';
import { widget } from './features/widget.entity';
import { academic } from './institute/academic.entity';
import { circular } from './institute/circular.entity';
import { holiday } from './institute/holiday.entity';
import { institute } from './institute/institute.entity';
import { userInstitute } from './institute/user-institute.entity';
import { employee } from './employee/employee.entity';
import { actionHistory } from './history/action-history.entity';
import { loginHistory } from './history/login-history.entity';
import { loginLock } from './history/login-lock.entity';
import { backup } from './master/backup.entity';
import { community } from './master/community.entity';
import { designation } from './master/designation.entity';
import { documentType } from './master/document-type.entity';
import { language } from './master/language.entity';
import { leaveType } from './master/leave-type.entity';
import { bookCategory } from './library/book-category.entity';
import { book } from './library/book.entity';
import { religion } from './master/religion.entity';
import { role } from './master/role.entity';
import { report } from './reports/report.entity';
import { setting } from './setting/setting.entity';
import { tableSetting } from './setting/table-setting.entity';
import { student } from './student/student.entity';
import { sectionTimetable } from './class-section/section-timetable.entity';
import { employeeAttendance } from './employee/employee-attendance.entity';
import { employeeTimetable } from './employee/employee-timetable.entity';
import { userAssignment } from './employee/user-assignment.entity';
import { userResource } from './employee/user-resource.entity';
import { mobNotification } from './features/mob-notification.entity';
import { migration } from './institute/migration.entity';
import { migrationRow } from './institute/migration-row.entity';
import { certificate } from './student/certificate.entity';
import { earlyPickup } from './student/early-pickup.entity';
import { memberPickup } from './student/member-pickup.entity';
import { promotion } from './student/promotion.entity';
import { studentAdmission } from './student/student-admission.entity';
import { studentAssignment } from './student/student-assignment.entity';
import { studentDaywiseAttendanceSummary } from './student/student-daywise-attendance-summary.entity';
import { studentLeave } from './student/student-leave.entity';
import { studentAttendance } from './student/student-attendance.entity';
import { studentInterchange } from './student/student-interchange.entity';
import { studentResource } from './student/student-resource.entity';
import { wallet } from './student/wallet.entity';
import { walletTransaction } from './student/wallet-transaction.entity';
import { subjectDetail } from './subject/subject-detail.entity';
import { subject } from './subject/subject.entity';
import { bus } from './transport/bus.entity';
import { userPermissionGroup } from './user-permission/user-permission-group.entity';
import { userPermissionMapping } from './user-permission/user-permission-mapping.entity';
import { userPermission } from './user-permission/user-permission.entity';
import { expense } from './budget/expense.entity';
import { cancelFee } from './fee/cancel-fee.entity';
import { collectedFeeDetail } from './fee/collected-fee-detail.entity';
import { collectedFee } from './fee/collected-fee.entity';
import { billCounter } from './fee/bill-counter.entity';
import { studentDiscount } from './student/student-discount.entity';
import { feeFollowup } from './fee/fee-followup.entity';
import { fee } from './fee/fee.entity';
import { onlinePaymentRequest } from './fee/online-payment-request.entity';
import { notification, notificationMapping, userNotification } from './features/notification.entity';
import { bookCheckin } from './library/book-checkin.entity';
import { bookCheckinoutSummary } from './library/book-checkinout-summary.entity';
import { bookCheckout } from './library/book-checkout.entity';
import { busMapping } from './transport/bus-mapping.entity';
import { busTrip } from './transport/bus-trip.entity';
import { academicFeeCollect } from './fee/academic-fee-collect.entity';
import { feeCollection } from './fee/fee-collection.entity';
import { studentDetail } from './fee/student-detail.entity';
import { feeReport } from './reports/fee-report.entity';
import { overallBudget } from './reports/overall-budget.entity';
import { transportBudget } from './reports/transport-budget.entity';
import { staffBookStock } from './library/staff-book-stock.entity';
import { customReport } from './reports/custom-report.entity';
import { scheduleEvent } from './features/schedule-event.entity';

/** Every entity, in dependency order (a link's target comes before the entity that links to it). */
export const entities: readonly AnyEntity[] = [
  institute,
  language,
  religion,
  community,
  designation,
  role,
  leaveType,
  documentType,
  academic,
  employee,
  userInstitute,
  userPermissionGroup,
  userPermission,
  userPermissionMapping,
  setting,
  tableSetting,
  loginHistory,
  actionHistory,
  loginLock,
  // issue 3, first batch
  classGroup,
  classEntity,
  section,
  subject,
  bus,
  expenseCategory,
  expenseSubCategory,
  bookCategory,
  book,
  tenderType,
  feeType,
  feeGroup,
  holiday,
  // issue 3, second batch
  examType,
  exam,
  mark,
  subjectDetail,
  quickMenu,
  widget,
  report,
  backup,
  circular,
  // The promotion that wrote a student's row of next year comes first: the student links to it.
  promotion,
  // issue 4: students (after the sections and the subject mapping their ownership goes through)
  student,
  // issue 3, third batch: the student and employee side (after the students, sections and mapping they link to)
  wallet,
  certificate,
  studentDaywiseAttendanceSummary,
  studentAdmission,
  studentAssignment,
  studentResource,
  studentLeave,
  earlyPickup,
  memberPickup,
  employeeAttendance,
  userAssignment,
  userResource,
  employeeTimetable,
  sectionTimetable,
  migration,
  migrationRow,
  mobNotification,
  // issue 3, fourth batch: fees, budget, transport, library, notifications (after the students, classes,
  // fee groups, buses and books they link to)
  fee,
  feeFollowup,
  // fee collection: bills and their lines, then the cancellations that point at a bill
  collectedFee,
  collectedFeeDetail,
  cancelFee,
  // Each year's last bill number (after the academic years it is kept per).
  billCounter,
  // A wallet's movements point at the bill paid from it.
  walletTransaction,
  studentDiscount,
  onlinePaymentRequest,
  expense,
  busMapping,
  bookCheckout,
  bookCheckin,
  bookCheckinoutSummary,
  notification,
  // who gets which rule, and what the daily job stored for them (after the employees and rules they link to)
  notificationMapping,
  userNotification,
  // student workflows: attendance marking and section interchange (after the students and sections)
  studentAttendance,
  studentInterchange,
  // exam workflow: marks entered per student (after the students, exams and their mark rows)
  studentMark,
  // transport tracking (after the buses)
  busTrip,
  // views (reports computed by the database), after every entity they read
  feeCollection,
  studentDetail,
  feeReport,
  academicFeeCollect,
  overallBudget,
  transportBudget,
  staffBookStock,
  // saved views of other entities' lists (links to the report groups)
  customReport,
  // a signed-in user's own schedule entries
  scheduleEvent,
];

const byName = new Map(entities.map((e) => [e.name, e]));

/**
 * What the compiler cannot see in an ownership through another entity: that entity's name and field names.
 * Checked once at load, so a typo fails every start and every test instead of silently showing nothing.
 */
export function ownershipIssues(list: readonly AnyEntity[]): string[] {
  const names = new Map(list.map((e) => [e.name, e]));
  const out: string[] = [];
  for (const e of list) {
    const o = e.ownership;
    if (o === undefined || typeof o === 'string') continue;
    if ('via' in o) {
      out.push(...viaIssues(e, o.via, names));
      continue;
    }
    if ('entity' in o) {
      out.push(...recordIssues(e, o, names));
      continue;
    }
    const via = names.get(o.through);
    if (!via || via === e) {
      out.push(`${e.name}: ownership through '${o.through}' is not another registered entity`);
      continue;
    }
    // The row and the assigning row must share the institute (and year), or a mapping elsewhere would count. An
    // institute's row (a promotion joins two years) may go through a year's mapping when it names the year.
    const namesYear = e.scope === 'institute' && via.scope === 'academic-year' && Object.values(o.match).includes('acdm_cd');
    if ((via.scope !== e.scope && !namesYear) || (e.scope !== 'institute' && e.scope !== 'academic-year')) {
      out.push(`${e.name}: ownership through '${o.through}' needs both in the same institute or academic-year scope`);
    }
    const pairs = Object.entries(o.match);
    if (pairs.length === 0) out.push(`${e.name}: ownership through '${o.through}' matches on no field`);
    for (const [mine, theirs] of pairs) {
      if (!Object.hasOwn(e.fields, mine)) out.push(`${e.name}: ownership match field '${mine}' is not a field`);
      const scopeColumn = theirs === 'acdm_cd' && via.scope === 'academic-year';
      if (theirs === undefined || (!Object.hasOwn(via.fields, theirs) && !scopeColumn)) out.push(`${e.name}: ownership match '${String(theirs)}' is not a field of ${via.name}`);
    }
    const user = Object.hasOwn(via.fields, o.user) ? via.fields[o.user] : undefined;
    if (user?.kind !== 'link' || user.to !== 'employee') out.push(`${e.name}: ownership user '${o.user}' is not a link of ${via.name} to employee`);
  }
  return out;
}

/**
 * Ownership along a link: the field must link to an entity that has an ownership of its own, in the same
 * institute (and year), and following the links must end (a chain that came back would never decide).
 */
function viaIssues(e: AnyEntity, field: string, names: ReadonlyMap<string, AnyEntity>): string[] {
  const f = Object.hasOwn(e.fields, field) ? e.fields[field] : undefined;
  if (f?.kind !== 'link') return [`${e.name}: ownership via '${field}' is not a link field`];
  const seen = new Set([e.name]);
  let target = names.get(f.to);
  while (target) {
    if (seen.has(target.name)) return [`${e.name}: ownership via '${field}' comes back to ${target.name}`];
    seen.add(target.name);
    const o = target.ownership;
    if (o === undefined) return [`${e.name}: ownership via '${field}' reaches ${target.name}, which has no ownership`];
    // A rule through a mapping compares institute and year; 'self' and 'creator' name the user whatever the year.
    if (target.name === f.to && typeof o !== 'string' && target.scope !== e.scope) return [`${e.name}: ownership via '${field}' needs ${target.name} in the same scope`];
    if (typeof o === 'string' || !('via' in o)) return [];
    const next: Field | undefined = target.fields[o.via];
    target = next?.kind === 'link' ? names.get(next.to) : undefined;
  }
  return [`${e.name}: ownership via '${field}' reaches no registered entity`];
}

/**
 * Ownership of the record a row is about: both fields are the row's own, and every entity it may name is
 * registered with an ownership of its own that is not itself about another record (a chain would not end).
 */
function recordIssues(e: AnyEntity, o: OwnershipOfRecord, names: ReadonlyMap<string, AnyEntity>): string[] {
  const out: string[] = [];
  for (const f of [o.entity, o.key]) if (!Object.hasOwn(e.fields, f)) out.push(`${e.name}: ownership record field '${f}' is not a field`);
  for (const [stored, name] of Object.entries(o.entities ?? {})) {
    const target = names.get(name);
    const to = target?.ownership;
    if (!target || to === undefined) out.push(`${e.name}: ownership record '${stored}' names ${name}, which is not a registered entity with an ownership`);
    else if (typeof to === 'object' && 'entity' in to) out.push(`${e.name}: ownership record '${stored}' names ${name}, whose ownership is about another record`);
  }
  return out;
}

/** A view's rows come and go with the rows it sums, so nothing may hold a reference to one. */
export function viewLinkIssues(list: readonly AnyEntity[]): string[] {
  const views = new Set(list.filter(isView).map((e) => e.name));
  return list.flatMap((e) =>
    Object.entries(e.fields)
      .filter(([, f]) => f.kind === 'link' && views.has(f.to))
      .map(([name]) => `${e.name}.${name}: links to the view ${(e.fields[name] as LinkField).to}`),
  );
}

/** A workflow button's `opens` names another declaration: a registered entity whose row can be read (get). */
export function workflowOpensIssues(list: readonly AnyEntity[]): string[] {
  const names = new Map(list.map((e) => [e.name, e]));
  return list.flatMap((e) =>
    (e.workflowButtons ?? [])
      .filter((b) => b.opens !== undefined)
      .flatMap((b) => {
        const target = names.get(b.opens ?? '');
        if (!target) return [`${e.name}: workflow button ${b.button} opens '${String(b.opens)}', which is not a registered entity`];
        return hasRoute(target, 'get') ? [] : [`${e.name}: workflow button ${b.button} opens ${target.name}, which has no get route`];
      }),
  );
}

/** A related list names a registered entity with a list route, and a link of it to the declaring entity. */
export function relatedIssues(list: readonly AnyEntity[]): string[] {
  const names = new Map(list.map((e) => [e.name, e]));
  return list.flatMap((e) =>
    (e.related ?? []).flatMap((r) => {
      const target = names.get(r.entity);
      if (!target || !hasRoute(target, 'list')) return [`${e.name}: related list '${r.entity}' is not a registered entity with a list`];
      const f = Object.hasOwn(target.fields, r.field) ? target.fields[r.field] : undefined;
      return f?.kind === 'link' && f.to === e.name ? [] : [`${e.name}: related list ${r.entity}.${r.field} is not a link to ${e.name}`];
    }),
  );
}

const ownershipProblems = [...ownershipIssues(entities), ...viewLinkIssues(entities), ...workflowOpensIssues(entities), ...relatedIssues(entities)];
if (ownershipProblems.length) throw new Error(ownershipProblems.join('; '));

export function entity(name: string): AnyEntity {
  const e = byName.get(name);
  if (!e) throw new Error(`Unknown entity ${name}`);
  return e;
}

export const findEntity = (name: string): AnyEntity | undefined => byName.get(name);
