import { describe, expect, it } from 'vitest';
import { documentTitle, humanise, pageTitle, PRODUCT_NAME } from './page-title';

describe('pageTitle', () => {
  it('names a list page by its label and menu group', () => {
    expect(pageTitle('/sms/master/religion/table')).toBe('Religion - Other Master');
    expect(pageTitle('/sms/employee/profile/table')).toBe('Employee Profile - Employee');
  });

  it('puts the mode first', () => {
    expect(pageTitle('/sms/master/religion/create')).toBe('Create Religion - Other Master');
    expect(pageTitle('/sms/master/religion/update/12')).toBe('Update Religion - Other Master');
    expect(pageTitle('/sms/master/religion/table/search')).toBe('Search Religion - Other Master');
  });

  it('humanises pages it does not know', () => {
    expect(pageTitle('/sms/student/leave_request/table')).toBe('Leave Request - Student');
    expect(pageTitle('/sms/unknown_mod/some-page/table')).toBe('Some Page - Unknown Mod');
  });

  it('names the open and top-level pages', () => {
    expect(pageTitle('/sms/dashboard')).toBe('Dashboard');
    expect(pageTitle('/sms/schedule/table')).toBe('Schedule');
    expect(pageTitle('/login')).toBe('Sign In');
    expect(pageTitle('/page_not_autherised')).toBe('Not Authorised');
  });

  it('has no title at the root', () => {
    expect(pageTitle('/')).toBeNull();
    expect(pageTitle('/sms')).toBeNull();
  });

  it('uses the translation when given', () => {
    const t = (key: string, fallback: string): string => (key === 'menu.master' ? 'பிற முதன்மை' : fallback);
    expect(pageTitle('/sms/master/religion/table', t)).toBe('Religion - பிற முதன்மை');
  });
});

describe('documentTitle', () => {
  it('appends the product name, or is the product name alone', () => {
    expect(documentTitle('/sms/master/religion/table')).toBe(`Religion - Other Master | ${PRODUCT_NAME}`);
    expect(documentTitle('/')).toBe('Campus');
  });
});

describe('humanise', () => {
  it('capitalises words', () => {
    expect(humanise('book_checkinout_summary')).toBe('Book Checkinout Summary');
  });
});
