import { notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  decodeUser,
  encodeUser,
  getSession,
  isAdmin,
  onTamper,
  setAcademicYear,
  setInstitute,
  signIn,
  signOut,
  TAMPERED_MESSAGE,
  verifyStoredUser,
  type SessionUser,
} from './session-store';

const user: SessionUser = {
  usr_nm: 'ADMIN',
  usr_cd: 1,
  usr_id: 'E001',
  usr_token: 'tok-123',
  rl_nm: 'Admin',
  usr_inst_cd: 2,
  usr_full_nm: 'Ádmin Ñame தமிழ்',
  is_admin: true,
  institutes: [
    { inst_cd: 1, inst_nm: 'North School', inst_typ: 'school' },
    { inst_cd: 2, inst_nm: 'South College', inst_typ: 'college' },
  ],
};

afterEach(() => {
  signOut();
  vi.restoreAllMocks();
});

describe('encoding', () => {
  it('round-trips, unicode included', () => {
    const decoded = decodeUser(encodeUser(user));
    expect(decoded).toEqual({ ok: true, user });
  });

  it('refuses an edited record', () => {
    const stored = encodeUser(user);
    const [b64, sum] = stored.split('.');
    const edited = btoa(atob(b64!).replace('"Admin"', '"Clerk"'));
    expect(decodeUser(`${edited}.${sum}`)).toEqual({ ok: false });
    expect(decodeUser('garbage')).toEqual({ ok: false });
    expect(decodeUser(`${btoa('{"usr_nm":1}')}.00000000`)).toEqual({ ok: false });
  });
});

describe('store', () => {
  it('signs in with the home institute and stores the record encoded', () => {
    signIn(user);
    expect(getSession().user?.usr_nm).toBe('ADMIN');
    expect(getSession().institute?.inst_cd).toBe(2);
    const raw = localStorage.getItem('campus.user')!;
    expect(raw).not.toContain('tok-123');
    expect(decodeUser(raw)).toEqual({ ok: true, user });
  });

  it('clears the year when the institute changes', () => {
    signIn(user);
    setAcademicYear({ acdm_cd: 9, label: '2026-27' });
    expect(getSession().year?.label).toBe('2026-27');
    setInstitute(user.institutes[0]!);
    expect(getSession().year).toBeNull();
  });

  it('signs out with the toast when the stored record is tampered with', () => {
    const show = vi.spyOn(notifications, 'show');
    const tampered = vi.fn();
    onTamper(tampered);
    signIn(user);
    expect(verifyStoredUser()).toBe(true);
    localStorage.setItem('campus.user', `${localStorage.getItem('campus.user')}x`);
    expect(verifyStoredUser()).toBe(false);
    expect(getSession().user).toBeNull();
    expect(show).toHaveBeenCalledWith(expect.objectContaining({ message: TAMPERED_MESSAGE, title: 'ERROR' }));
    expect(tampered).toHaveBeenCalled();
  });

  it('follows a sign-out from another tab', () => {
    signIn(user);
    localStorage.removeItem('campus.user');
    expect(verifyStoredUser()).toBe(false);
    expect(getSession().user).toBeNull();
  });
});

describe('isAdmin', () => {
  it('trusts the flag or the role name', () => {
    expect(isAdmin({ is_admin: false, rl_nm: 'Head Master' })).toBe(true);
    expect(isAdmin({ is_admin: true, rl_nm: 'Clerk' })).toBe(true);
    expect(isAdmin({ is_admin: false, rl_nm: 'Clerk' })).toBe(false);
    expect(isAdmin(null)).toBe(false);
  });
});
