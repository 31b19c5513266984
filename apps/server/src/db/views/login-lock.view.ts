/**
 * The sign-in's failure counters (login_attempt) as the Sign-in Locks page shows them: what each counts for
 * and how long until it accepts another try. Counters with no failures left are not shown.
 */
export const loginLockView = `
SELECT a.atmpt_cd, 1 AS row_ver,
       CASE a.atmpt_kind
         WHEN 'Login Id and Address' THEN a.atmpt_usr_nm || ' from ' || a.atmpt_ip
         WHEN 'Address' THEN a.atmpt_ip
         WHEN 'Known Device' THEN a.atmpt_usr_nm || ' on a known device'
         ELSE a.atmpt_usr_nm
       END AS atmpt_subject,
       a.atmpt_kind, a.atmpt_usr_nm, a.atmpt_ip, a.atmpt_fail_cnt, a.atmpt_first_at, a.atmpt_last_at, a.atmpt_next_at,
       greatest(ceil(extract(epoch FROM a.atmpt_next_at - now())), 0)::int AS atmpt_wait_sec
FROM login_attempt a
WHERE a.atmpt_fail_cnt > 0`;
