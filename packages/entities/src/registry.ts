import type { AnyEntity } from './define';
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
import { subjectDetail } from './subject/subject-detail.entity';
import { subject } from './subject/subject.entity';
import { bus } from './transport/bus.entity';
import { userPermissionGroup } from './user-permission/user-permission-group.entity';
import { userPermissionMapping } from './user-permission/user-permission-mapping.entity';
import { userPermission } from './user-permission/user-permission.entity';

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
];

const byName = new Map(entities.map((e) => [e.name, e]));

export function entity(name: string): AnyEntity {
  const e = byName.get(name);
  if (!e) throw new Error(`Unknown entity ${name}`);
  return e;
}

export const findEntity = (name: string): AnyEntity | undefined => byName.get(name);
