/**
 * A screen for administrators by role (spec section 6) that is not a page of pages.ts, so no permission row
 * puts it in the side menu: it is listed in a group for administrators only (its route and the server refuse
 * everyone else anyway). Kept free of React so the browser tests read the same list.
 */
export interface AdminLink {
  /** The menu group (pages.ts menuGroups module) it is listed under, after the group's pages. */
  module: string;
  to: string;
  /** Its text in the language files (dotted key), and the English default. */
  labelKey: string;
  label: string;
}

export const adminLinks: readonly AdminLink[] = [{ module: 'master', to: '/sms/jobs', labelKey: 'jobs.title', label: 'Background jobs' }];

export const isAdminLinkActive = (l: AdminLink, pathname: string): boolean => pathname === l.to || pathname.startsWith(`${l.to}/`);
