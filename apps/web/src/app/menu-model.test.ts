import { describe, expect, it } from 'vitest';
import { menuIcon } from './menu-icons';
import { isItemActive, itemLabel, itemLink, menuSections, pageLink } from './side-menu';
import { allowedButtons, allowedKeys, menuItems } from './use-allowed-pages';
import { IconCircleDot, IconSchool } from '@tabler/icons-react';

describe('side menu model', () => {
  const permissions = [
    { usr_prms_mdl: 'master', usr_prms_page: 'religion', usr_prms_is_alw: true },
    { usr_prms_mdl: 'master', usr_prms_page: 'role', usr_prms_is_alw: 0 },
    { usr_prms_pth_url: 'sms/history/login', usr_prms_is_alw: 1 },
    // Allowed but not live yet: never in the menu (a made-up page: every real one gets built in time).
    { usr_prms_mdl: 'student', usr_prms_page: 'not_built', usr_prms_is_alw: true },
    // Live but not a menu page: none today, so a made-up one is simply ignored.
    { usr_prms_mdl: 'nowhere', usr_prms_page: 'nothing', usr_prms_is_alw: true },
  ];

  it('keeps allowed rows only, by module/page or by path', () => {
    expect([...allowedKeys(permissions)].sort()).toEqual(['history/login', 'master/religion', 'nowhere/nothing', 'student/not_built']);
  });

  it('lists live, allowed menu pages in pages.ts order and hides empty groups', () => {
    const items = menuItems(allowedButtons(permissions));
    expect(items.map((i) => `${i.page.module}/${i.page.page}/${i.mode}`)).toEqual(['master/religion/table', 'history/login/table']);
    const sections = menuSections(items);
    expect(sections.map((s) => s.module)).toEqual(['master', 'history']);
    expect(sections[0]!.title).toBe('Other Master');
  });

  it('adds Background jobs to Other Master for administrators only, also when they hold no page of it', () => {
    const items = menuItems(allowedButtons(permissions));
    expect(menuSections(items, true).find((s) => s.module === 'master')?.links?.map((l) => l.to)).toEqual(['/sms/jobs']);
    expect(menuSections(items, false).flatMap((s) => s.links ?? [])).toEqual([]);
    const history = menuItems(allowedButtons([{ usr_prms_pth_url: 'sms/history/login', usr_prms_is_alw: 1 }]));
    expect(menuSections(history, true).map((s) => s.module)).toEqual(['master', 'history']);
    expect(menuSections(history, false).map((s) => s.module)).toEqual(['history']);
  });

  it('links to the table mode', () => {
    expect(pageLink({ module: 'master', page: 'religion' })).toBe('/sms/master/religion/table');
  });

  it('maps icon names, with a fallback', () => {
    expect(menuIcon('school')).toBe(IconSchool);
    expect(menuIcon('no-such-icon')).toBe(IconCircleDot);
  });

  it('labels the Features group New', () => {
    const features = menuSections([{ page: { module: 'features', page: 'widget', label: 'Widget', entity: 'x', buttons: [], menu: true }, mode: 'table' }]);
    expect(features[0]!.badge).toBe('New');
  });

  describe('Mark Attendance: the attendance list stays off the menu, marking is in it for those who may', () => {
    const attendance = (btns: string) => ({ usr_prms_mdl: 'student', usr_prms_page: 'attendance', usr_prms_is_alw: 1, usr_prms_btns: btns });
    const profile = { usr_prms_mdl: 'student', usr_prms_page: 'profile', usr_prms_is_alw: 1, usr_prms_btns: 'view' };
    const t = (_key: string, o: { defaultValue: string }): string => o.defaultValue;

    it('offers Mark Attendance, opening the create mode, to a holder of create', () => {
      const items = menuItems(allowedButtons([profile, attendance('view,create,edit')]));
      expect(items.map((i) => [itemLabel(i, t), itemLink(i)])).toEqual([
        ['Student Profile', '/sms/student/profile/table'],
        ['Mark Attendance', '/sms/student/attendance/create'],
      ]);
    });

    it('offers nothing for attendance to a holder of the page without create, nor when the page is refused', () => {
      expect(menuItems(allowedButtons([profile, attendance('view,export')])).map((i) => i.page.page)).toEqual(['profile']);
      expect(menuItems(allowedButtons([profile, { ...attendance('create'), usr_prms_is_alw: 0 }])).map((i) => i.page.page)).toEqual(['profile']);
    });

    it('takes the buttons of a row given by path too, and of several rows of one page together', () => {
      const byPath = { usr_prms_pth_url: 'sms/student/attendance', usr_prms_is_alw: true, usr_prms_btns: 'view' };
      expect(menuItems(allowedButtons([byPath, attendance('create')])).map((i) => i.mode)).toEqual(['create']);
    });

    it('lights Mark Attendance on the marking screen only, and a list entry on every mode of its page', () => {
      const [mark] = menuItems(allowedButtons([attendance('create')]));
      expect(isItemActive(mark!, '/sms/student/attendance/create')).toBe(true);
      expect(isItemActive(mark!, '/sms/student/attendance/table')).toBe(false);
      const [list] = menuItems(allowedButtons([profile]));
      expect(isItemActive(list!, '/sms/student/profile/update/4')).toBe(true);
      expect(isItemActive(list!, '/sms/student/profiles/table')).toBe(false);
    });
  });
});
