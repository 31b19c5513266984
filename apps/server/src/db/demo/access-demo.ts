import { findPage, isLive, pagePath } from '@campus/entities/pages';
import { rows, sql } from '../client';
import { addDays, iso } from './calendar';
import type { Row } from './insert-rows';
import { whoIs, type OfficeDemo, type StaffMember } from './staff-demo';

interface GroupPlan {
  name: string;
  desc: string;
  /** One flag for the whole set, as the permission editor saves it (?usrNeedDataChk). */
  ownStudentsOnly: boolean;
  pages: readonly (readonly [module: string, page: string, buttons: string])[];
  members: (staff: readonly StaffMember[]) => StaffMember[];
}

/** A group's rows as the permission editor sends them, for the history's REPLACE image too. */
export interface GroupGrant {
  upg_cd: number;
  name: string;
  rows: Row[];
  members: StaffMember[];
}

function classTeachers(d: OfficeDemo, staff: readonly StaffMember[], n: number): StaffMember[] {
  const taken = new Set(d.accounts.values());
  const out: StaffMember[] = [];
  for (const subs of d.mapping.values()) {
    const usr = subs[0]?.usr;
    if (usr === undefined || taken.has(usr)) continue;
    taken.add(usr);
    const m = staff.find((s) => s.usr_cd === usr);
    if (m) out.push(m);
  }
  return out.slice(0, n);
}

function plans(d: OfficeDemo): GroupPlan[] {
  const school = d.kind === 'school';
  const notAccounts = (list: StaffMember[]): StaffMember[] => list.filter((s) => ![...d.accounts.values()].includes(s.usr_cd));
  return [
    {
      name: school ? 'Class Teachers' : 'Class Advisors',
      desc: school ? 'Their own class: register, leave letters and marks of their students only' : 'Their own class: attendance and marks of their students only',
      ownStudentsOnly: true,
      pages: [
        ['student', 'profile', 'view,export'],
        ['student', 'daywise_attendance', 'view,export'],
        ['student', 'attendance', 'create,edit,view'],
        ['student', 'leave_request', 'view,take_action'],
        ['exam', 'mark_list', 'view,create,edit'],
        ['employee', 'timetable', 'view'],
      ],
      members: (staff) => classTeachers(d, staff, school ? 8 : 4),
    },
    {
      name: 'Office Staff',
      desc: 'Front office: admissions, student records, circulars and the staff register',
      ownStudentsOnly: false,
      pages: [
        ['student', 'admission', 'create,edit,view,admit'],
        ['student', 'profile', 'create,edit,view,export'],
        ['student', 'certificate', 'create,view,export,print'],
        ['institute', 'circular', 'create,edit,view'],
        ['institute', 'holiday', 'view'],
        ['employee', 'attendance', 'create,edit,view'],
        ['transport', 'tracking', 'view,take_action'],
      ],
      members: (staff) => notAccounts(staff.filter((s) => s.desg_nm === 'Office Assistant' || s.desg_nm === 'Lab Assistant')).slice(0, 3),
    },
    ...(school
      ? [
          {
            name: 'Exam Cell',
            desc: 'Exam schedule, maximum marks and the mark lists of every section',
            ownStudentsOnly: false,
            pages: [
              ['exam', 'examtype', 'view,take_action'],
              ['exam', 'exam', 'create,edit,view,export'],
              ['exam', 'mark', 'create,edit,view'],
              ['exam', 'mark_list', 'view,export'],
            ] as const,
            members: (staff: readonly StaffMember[]) => [whoIs(staff, d, 'Vice Principal'), whoIs(staff, d, 'BT Assistant', 4)],
          },
        ]
      : []),
  ];
}

/**
 * Permission groups (user_permission/group) with their rows in user_permission (upg_cd set, no employee),
 * and who belongs to them (user_permission/mapping). The demo accounts stay out: their pages are their own.
 */
export async function permissionGroups(d: OfficeDemo, staff: readonly StaffMember[]): Promise<GroupGrant[]> {
  const setUp = addDays(iso(d.startYear, d.joinMonth, 1), -2);
  const list = plans(d);
  const got = await d.add(
    'user_permission_group',
    list.map((g) => ({ inst_cd: d.instCd, upg_nm: g.name, upg_desc: g.desc, upg_crt_by: 'ADMIN', upg_crt_dt: setUp, crt_by: d.admin })),
    ['upg_nm'],
  );
  const out: GroupGrant[] = [];
  const perms: Row[] = [];
  const maps: Row[] = [];
  for (const g of list) {
    const upg = Number(got.find((x) => x.upg_nm === g.name)!.upg_cd);
    const grant: GroupGrant = { upg_cd: upg, name: g.name, rows: [], members: [] };
    for (const [module, page, buttons] of g.pages) {
      const pg = findPage(module, page);
      // A typo or a page not built yet fails the generator, not the user who opens the group.
      if (!pg || !isLive(pg)) throw new Error(`demo: no live page ${module}/${page}`);
      const odd = buttons.split(',').filter((b) => !pg.buttons.includes(b));
      if (odd.length) throw new Error(`demo: ${module}/${page} has no button ${odd.join(', ')}`);
      const input = { upg_cd: upg, usr_prms_mdl: module, usr_prms_page: page, usr_prms_pth_url: pagePath(pg), usr_prms_is_alw: true, usr_prms_btns: buttons, usr_prms_dscr: g.name };
      grant.rows.push({ ...input, usr_need_data_chk: g.ownStudentsOnly });
      perms.push({
        inst_cd: d.instCd,
        usr_prms_usr_cd: null,
        ...input,
        usr_need_data_chk: g.ownStudentsOnly,
        usr_sts: true,
        usr_prms_hdr_crt_dt: setUp,
        crt_by: d.admin,
      });
    }
    const seen = new Set<number>();
    for (const m of g.members(staff)) {
      if (seen.has(m.usr_cd) || [...d.accounts.values()].includes(m.usr_cd)) continue;
      seen.add(m.usr_cd);
      grant.members.push(m);
      maps.push({ inst_cd: d.instCd, upg_cd: upg, usr_cd: m.usr_cd, up_map_dscr: m.desg_nm ? `${m.desg_nm}` : null, crt_by: d.admin });
    }
    out.push(grant);
  }
  await d.add('user_permission', perms);
  await d.add('user_permission_mapping', maps);
  return out;
}

/**
 * Employee mapping (institute/user_institute): who may also enter the other institute. Written from the
 * college's run, when both staffs exist: a few school teachers teach in the college as visiting faculty (one
 * whose term has ended is kept, switched off), and two of the college's staff work in the school too. The
 * ADMIN's own mapping to the college comes from the seed; the school is the ADMIN's home, so it needs none.
 */
export async function employeeMappings(d: OfficeDemo, collegeStaff: readonly StaffMember[]): Promise<Row[]> {
  if (d.kind !== 'college') return [];
  const [school] = await rows<{ inst_cd: number }>(d.tx, sql`SELECT inst_cd FROM institute WHERE inst_typ = 'school' ORDER BY inst_cd LIMIT 1`);
  if (!school) return [];
  const schoolStaff = await rows<StaffMember>(
    d.tx,
    sql`SELECT e.usr_cd, e.usr_full_nm, g.desg_nm FROM employee e LEFT JOIN designation g ON g.desg_cd = e.usr_desg
        JOIN role r ON r.rl_cd = e.usr_typ
        WHERE e.inst_cd = ${school.inst_cd} AND r.rl_nm = 'TEACHER' AND e.usr_nm NOT IN ('TEACHER', 'ACCOUNTANT', 'LIBRARIAN') ORDER BY e.usr_cd`,
  );
  // The school's subject teachers of the upper classes: the ones a college would ask.
  const bySubject = async (sub: string): Promise<StaffMember | undefined> => {
    const [hit] = await rows<{ usr_cd: number }>(
      d.tx,
      sql`SELECT d.usr_cd FROM subject_detail d JOIN subject s ON s.sub_cd = d.sub_cd
          WHERE d.inst_cd = ${school.inst_cd} AND s.sub_nm = ${sub} ORDER BY d.usr_cd LIMIT 1`,
    );
    return schoolStaff.find((s) => s.usr_cd === hit?.usr_cd);
  };
  const visiting: [StaffMember | undefined, boolean, string][] = [
    [await bySubject('Hindi'), true, 'Visiting faculty: Hindi for first-year B.Com and B.Sc students'],
    [await bySubject('Physical Education'), true, "Visiting faculty: coaches the college's athletics team"],
    [await bySubject('Computer Science'), false, 'Visiting faculty: Python lab, odd semester (term over)'],
  ];
  const out: Row[] = [];
  for (const [m, on, dscr] of visiting) {
    if (m) out.push({ inst_cd: d.instCd, usr_cd: m.usr_cd, usr_inst_sts: on, usr_inst_dscr: dscr, crt_by: d.admin });
  }
  const principal = collegeStaff.find((s) => s.desg_nm === 'Principal');
  const accountant = collegeStaff.find((s) => s.desg_nm === 'Accountant');
  if (principal) out.push({ inst_cd: school.inst_cd, usr_cd: principal.usr_cd, usr_inst_sts: true, usr_inst_dscr: 'Correspondent of the trust: reviews the school office every month', crt_by: d.admin });
  if (accountant) out.push({ inst_cd: school.inst_cd, usr_cd: accountant.usr_cd, usr_inst_sts: true, usr_inst_dscr: 'Audits the school fee accounts every quarter', crt_by: d.admin });
  return d.add('user_institute', out, ['usr_cd', 'usr_inst_sts']);
}
