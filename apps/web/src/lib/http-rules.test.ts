import { describe, expect, it } from 'vitest';
import {
  buildUrl,
  entityNameFromUrl,
  errorAction,
  isRelativeUrl,
  readCookie,
  routeNamesFromPath,
  showsLoader,
  successToastMessage,
} from './http-rules';

describe('entityNameFromUrl', () => {
  it('takes the upper-cased second-to-last path segment', () => {
    expect(entityNameFromUrl('/api/religion/')).toBe('RELIGION');
    expect(entityNameFromUrl('/api/religion/5')).toBe('RELIGION');
    expect(entityNameFromUrl('/api/user_permission/?usrNeedDataChk=1')).toBe('USER_PERMISSION');
    expect(entityNameFromUrl('http://host:3000/api/fee_group/12?x=/a/b')).toBe('FEE_GROUP');
  });
});

describe('successToastMessage', () => {
  it('names the entity after POST and PUT', () => {
    expect(successToastMessage('POST', '/api/religion/')).toBe('RELIGION Created Successfully.');
    expect(successToastMessage('put', '/api/religion/7')).toBe('RELIGION Updated Successfully.');
  });

  it('is silent for other methods', () => {
    expect(successToastMessage('GET', '/api/religion/')).toBeNull();
    expect(successToastMessage('DELETE', '/api/religion/')).toBeNull();
  });

  it.each([
    '/api/employee_attendance/',
    '/api/employee/login/',
    '/api/fee/getStudentFeeSummary/',
    '/api/feedefaultreport/refresh',
    '/api/setting//tablesettings',
    '/api/report/executequery/',
    '/api/mob_notification/',
    '/api/theme/',
    '/api/student/validate/',
    '/api/discount/',
    '/api/fileupload/',
    '/api/reportFilter/',
    '/api/quickmail/',
    '/api/relation/',
    '/api/fee/sendInvoice/',
    '/api/dashboard/',
    '/api/fee/cleared/',
    '/api/certificate/',
    '/api/fee/getFeeCollectionDetails/',
    '/api/employee/updateUserInstitute/',
  ])('is silent for %s', (url) => {
    expect(successToastMessage('POST', url)).toBeNull();
    expect(successToastMessage('PUT', url)).toBeNull();
  });

  it('is silent when dontShowMsg is 1, whatever its case', () => {
    expect(successToastMessage('POST', '/api/religion/', { dontShowMsg: '1' })).toBeNull();
    expect(successToastMessage('POST', '/api/religion/', { dontshowmsg: '1' })).toBeNull();
    expect(successToastMessage('POST', '/api/religion/', { dontShowMsg: '0' })).toBe('RELIGION Created Successfully.');
  });

  it('is silent for POST to pending_fee and mark list, not for PUT', () => {
    expect(successToastMessage('POST', '/api/academic_fee_collect/pending_fee')).toBeNull();
    expect(successToastMessage('POST', '/api/academic_fee_collect/pending_fee/')).toBeNull();
    expect(successToastMessage('POST', '/api/mark/list?x=1')).toBeNull();
    expect(successToastMessage('PUT', '/api/mark/list')).toBe('MARK Updated Successfully.');
    expect(successToastMessage('POST', '/api/mark/')).toBe('MARK Created Successfully.');
  });
});

describe('showsLoader', () => {
  it('shows for ordinary API calls', () => {
    expect(showsLoader('/api/religion/?page=1')).toBe(true);
  });

  it.each([
    './assets/language/english.json',
    '/assets/config.JSON?v=2',
    '/api/user_permission/?usr_prms_page=religion',
    '/api/fileupload/',
    '/api/student/autocomplete?q=a',
    '/api/student_admission/admit/4',
  ])('hides for %s', (url) => {
    expect(showsLoader(url)).toBe(false);
  });
});

describe('errorAction', () => {
  it('signs out on 401 with the server message', () => {
    expect(errorAction(401, { message: 'Session expired.' })).toEqual({ kind: 'unauthorized', message: 'Session expired.' });
  });

  // Spec section 8: only the global handler is silent for these; the client toasts every non-401 error.
  it.each([404, 405, 504])('toasts %i like any other error', (status) => {
    expect(errorAction(status, { message: 'Religion not found.' })).toEqual({ kind: 'toast', message: 'Religion not found.' });
    expect(errorAction(status, '<html>')).toEqual({ kind: 'toast', message: 'Internal server error, Please try again later.' });
  });

  it('toasts the server message or the fallback', () => {
    expect(errorAction(409, { statusCode: 409, message: 'Religion Name already exists.' })).toEqual({
      kind: 'toast',
      message: 'Religion Name already exists.',
    });
    expect(errorAction(500, '<html>')).toEqual({ kind: 'toast', message: 'Internal server error, Please try again later.' });
    expect(errorAction(502, { message: '' })).toEqual({ kind: 'toast', message: 'Internal server error, Please try again later.' });
  });
});

describe('routeNamesFromPath', () => {
  it('reads module and page after sms', () => {
    expect(routeNamesFromPath('/sms/master/religion/table')).toEqual({ module: 'master', page: 'religion' });
    expect(routeNamesFromPath('/sms/dashboard')).toEqual({ module: 'dashboard', page: '' });
    expect(routeNamesFromPath('/login')).toEqual({ module: '', page: '' });
  });
});

describe('small helpers', () => {
  it('tells relative from absolute URLs', () => {
    expect(isRelativeUrl('/api/x')).toBe(true);
    expect(isRelativeUrl('api/x')).toBe(true);
    expect(isRelativeUrl('https://evil.example/api')).toBe(false);
    expect(isRelativeUrl('//evil.example/api')).toBe(false);
  });

  it('reads a cookie', () => {
    expect(readCookie('a=1; XSRF-TOKEN=abc%3D; b=2', 'XSRF-TOKEN')).toBe('abc=');
    expect(readCookie('a=1', 'XSRF-TOKEN')).toBeUndefined();
  });

  it('appends defined query values', () => {
    expect(buildUrl('/api/x/', { q: 'a b', page: 2, f: undefined })).toBe('/api/x/?q=a%20b&page=2');
    expect(buildUrl('/api/x/?usr_sts=1', { q: 'z' })).toBe('/api/x/?usr_sts=1&q=z');
    expect(buildUrl('/api/x/', {})).toBe('/api/x/');
  });
});
