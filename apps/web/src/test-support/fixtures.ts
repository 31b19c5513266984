// Data-only fixtures for the web tests. Kept free of runtime imports so a vi.mock factory can
// load it with a dynamic import without pulling in the module being mocked.
import type * as Registry from '@campus/entities/registry';
import type { SessionUser } from '../lib/session-store';

/** A signed-in office clerk without admin rights: what most permission tests are about. */
export const clerkUser: SessionUser = {
  usr_nm: 'CLERK1',
  usr_cd: 2,
  usr_id: null,
  usr_token: 'tok',
  rl_nm: 'OFFICE CLERK',
  usr_inst_cd: 1,
  usr_full_nm: 'Priya',
  is_admin: false,
  institutes: [{ inst_cd: 1, inst_nm: 'School', inst_typ: 'school' }],
};

/** The institute's admin, who sees every page. */
export const adminUser: SessionUser = {
  usr_nm: 'ADMIN',
  usr_cd: 1,
  usr_id: null,
  usr_token: 'tok',
  rl_nm: 'ADMIN',
  usr_inst_cd: 1,
  usr_full_nm: 'Admin',
  is_admin: true,
  institutes: [{ inst_cd: 1, inst_nm: 'School', inst_typ: 'school' }],
};

type RegistryModule = typeof Registry;

/**
 * The registry with religion declared year-scoped. No year-scoped entity is built yet, so tests of
 * how such pages behave pretend with this one; use it from a vi.mock factory.
 */
export function withYearScopedReligion(real: RegistryModule): RegistryModule {
  return {
    ...real,
    findEntity: (name: string) => {
      const e = real.findEntity(name);
      return e && name === 'religion' ? { ...e, scope: 'academic-year' as const } : e;
    },
  };
}
