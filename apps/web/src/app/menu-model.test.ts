import { describe, expect, it } from 'vitest';
import { menuIcon } from './menu-icons';
import { menuSections, pageLink } from './side-menu';
import { allowedKeys, menuPages } from './use-allowed-pages';
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
    const pages = menuPages(allowedKeys(permissions));
    expect(pages.map((p) => `${p.module}/${p.page}`)).toEqual(['master/religion', 'history/login']);
    const sections = menuSections(pages);
    expect(sections.map((s) => s.module)).toEqual(['master', 'history']);
    expect(sections[0]!.title).toBe('Other Master');
  });

  it('links to the table mode', () => {
    expect(pageLink({ module: 'master', page: 'religion' })).toBe('/sms/master/religion/table');
  });

  it('maps icon names, with a fallback', () => {
    expect(menuIcon('school')).toBe(IconSchool);
    expect(menuIcon('no-such-icon')).toBe(IconCircleDot);
  });

  it('labels the Features group New', () => {
    const features = menuSections([{ module: 'features', page: 'widget', label: 'Widget', entity: 'x', buttons: [], menu: true }]);
    expect(features[0]!.badge).toBe('New');
  });
});
