import { code, datetime, defineEntity, number, select, text } from '../define';

/**
 * Sign-in waits (history/login_lock): the failure counters the sign-in keeps per login id, per login id and
 * address, per address and per known device, with the time each may try again. Rows are written by the
 * sign-in only (access/auth.routes.ts); an administrator lifts one with 'Lift' (the counter is deleted).
 */
export const loginLock = defineEntity({
  name: 'login_lock',
  table: 'login_lock_v',
  storage: 'view',
  key: 'atmpt_cd',
  scope: 'global',
  label: 'Sign-in Lock',
  title: 'atmpt_subject',
  fields: {
    atmpt_cd: code(),
    atmpt_subject: text({ label: 'Counted For', search: true, max: 200 }),
    atmpt_kind: select({ label: 'Kind', options: ['Login Id', 'Login Id and Address', 'Address', 'Known Device'] }),
    atmpt_usr_nm: text({ label: 'Login Id', search: true, max: 60 }),
    atmpt_ip: text({ label: 'IP Address', search: true, max: 60 }),
    atmpt_fail_cnt: number({ label: 'Failures' }),
    atmpt_first_at: datetime({ label: 'First Failure' }),
    atmpt_last_at: datetime({ label: 'Last Failure' }),
    atmpt_next_at: datetime({ label: 'Next Try At' }),
    // Seconds until the next try is accepted (0: no wait now); computed by the view against the clock.
    atmpt_wait_sec: number({ label: 'Wait (seconds)' }),
  },
  workflowButtons: [
    {
      // 'login' in the button's name: only administrators ever hold it (spec section 6).
      button: 'lift_login',
      label: 'Lift',
      path: 'lift',
      target: 'path',
      confirm: 'Lift the sign-in wait of {{title}}? Its failure count starts again from zero.',
      done: 'The sign-in wait of {{title}} is lifted.',
    },
  ],
  defaultSort: { field: 'atmpt_last_at', dir: 'desc' },
});
