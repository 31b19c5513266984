import { employeeMappings, permissionGroups } from './access-demo';
import { actionHistory } from './action-history-demo';
import { backups, mobileNotifications, notifications, quickMenu, widgets } from './features-demo';
import { staffAssignments, staffAttendance, staffOf, staffResources, timetables, type OfficeDemo } from './staff-demo';

/**
 * Staff pages (attendance, timetables, tasks, resources), school organisation (section bells, employee
 * mapping, permission groups), the dashboard's features, the backup set-up and the office's action history.
 * History comes last: it records what the others made.
 */
export async function officeDemo(d: OfficeDemo): Promise<void> {
  const staff = await staffOf(d);
  await staffAttendance(d, staff.length);
  await timetables(d);
  const assignments = await staffAssignments(d, staff);
  const resources = await staffResources(d);
  const mappings = await employeeMappings(d, staff);
  const groups = await permissionGroups(d, staff);
  await backups(d);
  await widgets(d);
  await quickMenu(d);
  await notifications(d);
  const notes = await mobileNotifications(d);
  await actionHistory(d, staff, { assignments, resources, notes, groups, mappings });
}
