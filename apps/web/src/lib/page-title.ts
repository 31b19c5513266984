import { findPage, menuGroups } from '@campus/entities/pages';

/** The default document title; never shown as a page heading (spec section 2). */
export const PRODUCT_NAME = 'Campus';

/** i18next's t(key, default) shape, so titles follow the chosen language when one is given. */
export type Translate = (key: string, fallback: string) => string;

const identity: Translate = (_key, fallback) => fallback;

const modes: Record<string, string> = {
  create: 'Create',
  update: 'Update',
  view: 'View',
  clone: 'Clone',
  import: 'Import',
};

const topLevel: Record<string, string> = {
  login: 'Sign In',
  landing: 'Welcome',
  page_not_found: 'Page Not Found',
  page_not_autherised: 'Not Authorised',
};

/** 'leave_request' -> 'Leave Request' for segments pages.ts does not know. */
export function humanise(segment: string): string {
  return segment
    .split(/[_-]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

/**
 * The readable title of a browser path, or null where only the product name applies:
 * /sms/master/religion/table -> 'Religion - Other Master', /sms/master/religion/create -> 'Create Religion - Other Master'.
 */
export function pageTitle(pathname: string, t: Translate = identity): string | null {
  const segments = pathname.split(/[?#]/)[0]!.split('/').filter(Boolean).map(safeDecode);
  if (segments.length === 0) return null;
  const [first, module, page, mode] = segments;
  if (first !== 'sms') {
    const label = topLevel[first!];
    return label ? t(`title.${first}`, label) : humanise(first!);
  }
  if (!module) return null;
  if (module === 'dashboard') return t('title.dashboard', 'Dashboard');
  if (module === 'schedule') return t('title.schedule', 'Schedule');
  if (!page) return t(`menu.${module}`, groupTitle(module));

  const pageDef = findPage(module, page);
  const pageLabel = t(`page.${module}.${page}`, pageDef?.label ?? humanise(page));
  const base = `${pageLabel} - ${t(`menu.${module}`, groupTitle(module))}`;
  if (mode === 'table' && segments[4] === 'search') return `${t('mode.search', 'Search')} ${base}`;
  const modeLabel = mode ? modes[mode] : undefined;
  return modeLabel ? `${t(`mode.${mode}`, modeLabel)} ${base}` : base;
}

export function documentTitle(pathname: string, t: Translate = identity): string {
  const title = pageTitle(pathname, t);
  return title ? `${title} | ${PRODUCT_NAME}` : PRODUCT_NAME;
}

function groupTitle(module: string): string {
  return menuGroups.find((g) => g.module === module)?.title ?? humanise(module);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
