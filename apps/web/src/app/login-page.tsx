import { Alert, Anchor, Box, Button, Checkbox, Group, List, Paper, PasswordInput, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle, IconBooks, IconCash, IconChecklist, IconLock, IconShieldLock, IconUser, IconUsersGroup } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { lazy, Suspense, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { fallbackErrorMessage } from '../lib/http-rules';
import { http, HttpError } from '../lib/http-client';
import { PRODUCT_NAME } from '../lib/page-title';
import { signIn, useSession, type SessionUser } from '../lib/session-store';
import { toast } from '../lib/toast';
import { firstMissingRequired } from '../lib/validation';
import { BrandMark } from './brand-mark';
import type { Enrolment } from './two-step-card';
import { LoginLanguageSwitcher } from './login-language-switcher';
import classes from './login-page.module.css';

// The two-step set-up's QR code and recovery codes are needed by few sign-ins: fetched when asked for, so the
// sign-in page stays within its byte budget (e2e/first-load).
const EnrolmentQr = lazy(() => import('./two-step-card').then((m) => ({ default: m.EnrolmentQr })));
const RecoveryCodes = lazy(() => import('./two-step-card').then((m) => ({ default: m.RecoveryCodes })));

type LoginResponse = Partial<SessionUser> &
  Pick<SessionUser, 'usr_nm' | 'usr_cd' | 'usr_token'> & { mfa_enrol?: boolean; mfa_grace_until?: string; recovery_codes?: string[] };

/** Past its grace period an account without a second factor is refused with what its app scans (403 mfa_enrol). */
function enrolmentOf(err: unknown): Enrolment | null {
  if (!(err instanceof HttpError) || !err.details?.some((d) => d.field === 'mfa_enrol')) return null;
  const b = err.body as Partial<Enrolment> | undefined;
  return b && typeof b.secret === 'string' && typeof b.otpauth_uri === 'string' && typeof b.qr_svg === 'string'
    ? { secret: b.secret, otpauth_uri: b.otpauth_uri, qr_svg: b.qr_svg }
    : null;
}

function toSessionUser(r: LoginResponse): SessionUser {
  return {
    usr_nm: r.usr_nm,
    usr_cd: r.usr_cd,
    usr_id: r.usr_id ?? null,
    usr_token: r.usr_token,
    rl_nm: r.rl_nm ?? '',
    usr_inst_cd: r.usr_inst_cd ?? r.institutes?.[0]?.inst_cd ?? 0,
    usr_full_nm: r.usr_full_nm ?? r.usr_nm,
    is_admin: r.is_admin ?? false,
    institutes: r.institutes ?? [],
  };
}

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const [usrNm, setUsrNm] = useState('');
  const [usrPwd, setUsrPwd] = useState('');
  // After an administrator's reset the server asks for a new password before it signs anyone in.
  const [askNew, setAskNew] = useState(false);
  const [newPwd, setNewPwd] = useState('');
  // Two-step sign-in: after the right password the server asks for a code from the app (or a recovery code).
  const [askCode, setAskCode] = useState(false);
  const [useRecovery, setUseRecovery] = useState(false);
  const [mfaCode, setMfaCode] = useState('');
  const [remember, setRemember] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);
  // Past the grace period: the factor is set up here (QR, first code), then the recovery codes are shown once.
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [signedIn, setSignedIn] = useState<LoginResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const pwdRef = useRef<HTMLInputElement>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const missing = firstMissingRequired([
      { name: 'usr_nm', control: 'input', inputType: 'text', required: true, value: usrNm, label: t('login.username', { defaultValue: 'Login Id' }) },
      { name: 'usr_pwd', control: 'input', inputType: 'password', required: true, value: usrPwd, label: t('login.password', { defaultValue: 'Password' }) },
    ]);
    if (missing) {
      toast.danger(missing.message);
      (missing.fieldName === 'usr_nm' ? nameRef : pwdRef).current?.focus();
      return;
    }
    setBusy(true);
    try {
      const res = await http.post<LoginResponse>(
        '/api/employee/login/',
        {
          usr_nm: usrNm.trim(),
          usr_pwd: usrPwd,
          ...(askNew && newPwd ? { usr_pwd_new: newPwd } : {}),
          ...(enrolment && mfaCode.trim() ? { mfa_enrol_code: mfaCode.replace(/\s+/g, '') } : {}),
          ...(!enrolment && askCode && mfaCode.trim() ? { [useRecovery ? 'mfa_recovery' : 'mfa_code']: mfaCode.trim(), mfa_remember: remember } : {}),
        },
        // A stale session on this browser must not be sent along with a new sign-in.
        { headers: { auth_token: 'login', username: '', usercode: '' }, silent: true },
      );
      // Just set up here: the recovery codes are shown once, and Continue signs in.
      if (res.recovery_codes?.length) {
        setSignedIn(res);
        return;
      }
      signIn(toSessionUser(res));
      // Must use two-step sign-in and has none yet: said at once, with the date after which the password alone
      // no longer signs in; My Profile's card sets it up. The landing page still comes first: an administrator
      // of several institutes chooses one there.
      if (res.mfa_enrol) {
        toast.warning(
          res.mfa_grace_until
            ? t('mfa.grace_toast', {
                defaultValue: 'Set up two-step sign-in by {{date}}: after that you cannot sign in without it.',
                date: dayjs(res.mfa_grace_until).format('D MMM YYYY'),
              })
            : t('mfa.required_toast', { defaultValue: 'Your account needs two-step sign-in. Set it up under your name > My Profile.' }),
        );
      }
      navigate('/landing', { replace: true });
    } catch (err) {
      setError(err instanceof HttpError && err.status !== 0 ? err.message : fallbackErrorMessage);
      if (err instanceof HttpError && err.details?.some((d) => d.field === 'usr_pwd_new')) {
        // The password given was right: keep it, and ask for the new one.
        setAskNew(true);
        setNewPwd('');
        return;
      }
      const setup = enrolmentOf(err);
      if (setup || (err instanceof HttpError && err.details?.some((d) => d.field === 'mfa_enrol_code'))) {
        // The password was right and the grace period is over: set the factor up now (a 401: the code was wrong).
        if (setup) {
          setEnrolment(setup);
          setError(null);
        }
        setAskCode(false);
        setMfaCode('');
        codeRef.current?.focus();
        return;
      }
      if (err instanceof HttpError && err.details?.some((d) => d.field === 'mfa_code' || d.field === 'mfa_recovery')) {
        // The password was right (403: the code is asked; 401: the code was wrong): keep it, ask the code again.
        if (err.status === 403) setError(null);
        setAskCode(true);
        setMfaCode('');
        codeRef.current?.focus();
        return;
      }
      setUsrPwd('');
      pwdRef.current?.focus();
    } finally {
      setBusy(false);
    }
  }

  const features = [
    { icon: IconUsersGroup, text: t('menu.student', { defaultValue: 'Student' }) + ' · ' + t('menu.employee', { defaultValue: 'Employee' }) },
    { icon: IconCash, text: t('menu.fee', { defaultValue: 'Fee Master' }) + ' · ' + t('menu.budget', { defaultValue: 'Budget' }) },
    { icon: IconChecklist, text: t('menu.exam', { defaultValue: 'Exam' }) + ' · ' + t('menu.reports', { defaultValue: 'Reports' }) },
    { icon: IconBooks, text: t('menu.library', { defaultValue: 'Library' }) + ' · ' + t('menu.transport', { defaultValue: 'Transport' }) },
  ];

  return (
    <div className={classes.page}>
      {/* Read out like the rest of the page: it holds a link (the brand), and hidden content must not take the focus. */}
      <aside className={classes.hero}>
        <BrandMark to="/login" inverted />
        <div>
          <Title order={1} className={classes.heroTitle}>
            {t('login.hero_title', { defaultValue: 'Everything your school office runs on, in one place.' })}
          </Title>
          <Text className={classes.heroText}>
            {t('login.hero_text', {
              defaultValue: 'Admissions, fees, attendance, exams, library and transport, with per-page permissions for every member of staff.',
            })}
          </Text>
          <List spacing="sm" mt="xl" center>
            {features.map((f) => (
              <List.Item
                key={f.text}
                icon={
                  <ThemeIcon variant="white" color="campus" size={28} radius="xl">
                    <f.icon size={16} />
                  </ThemeIcon>
                }
              >
                <Text c="white" fw={500}>
                  {f.text}
                </Text>
              </List.Item>
            ))}
          </List>
        </div>
        <Text size="xs" className={classes.heroFoot}>
          {PRODUCT_NAME} · {t('app.tagline', { defaultValue: 'School and college back office' })}
        </Text>
      </aside>

      <main className={classes.formSide}>
        <Group justify="space-between" className={classes.topBar}>
          <Box className={classes.mobileBrand}>
            <BrandMark to="/login" />
          </Box>
          <LoginLanguageSwitcher w={130} />
        </Group>

        {signedIn?.recovery_codes ? (
          <Paper className={classes.card} withBorder shadow="sm" radius="lg" p={{ base: 'lg', xs: 'xl' }} data-testid="mfa-enrolled">
            <Stack gap="md">
              <Title order={2} size="h3">
                {t('mfa.turned_on', { defaultValue: 'Two-step sign-in is on.' })}
              </Title>
              <Suspense fallback={null}>
                <RecoveryCodes codes={signedIn.recovery_codes} />
              </Suspense>
              <Button
                size="md"
                fullWidth
                onClick={() => {
                  signIn(toSessionUser(signedIn));
                  navigate('/landing', { replace: true });
                }}
              >
                {t('btn.continue', { defaultValue: 'Continue' })}
              </Button>
            </Stack>
          </Paper>
        ) : (
        <Paper component="form" onSubmit={submit} noValidate className={classes.card} withBorder shadow="sm" radius="lg" p={{ base: 'lg', xs: 'xl' }}>
          <Stack gap="md">
            <div>
              <Title order={2} size="h3">
                {t('login.title', { defaultValue: 'Sign in to Campus' })}
              </Title>
              <Text size="sm" c="dimmed" mt={4}>
                {t('login.subtitle', { defaultValue: 'Use the login id and password given by your administrator.' })}
              </Text>
            </div>

            {error && (
              <Alert
                color="red"
                variant="light"
                icon={<IconAlertCircle size={18} />}
                role="alert"
                withCloseButton
                closeButtonLabel={t('btn.close', { defaultValue: 'Close' })}
                onClose={() => setError(null)}
              >
                {error}
              </Alert>
            )}

            <TextInput
              ref={nameRef}
              name="usr_nm"
              label={t('login.username', { defaultValue: 'Login Id' })}
              placeholder="e.g. ADMIN"
              leftSection={<IconUser size={16} />}
              autoComplete="username"
              autoCapitalize="characters"
              spellCheck={false}
              required
              autoFocus
              size="md"
              value={usrNm}
              onChange={(e) => {
                setUsrNm(e.currentTarget.value);
                if (error) setError(null);
              }}
            />
            <PasswordInput
              ref={pwdRef}
              name="usr_pwd"
              label={t('login.password', { defaultValue: 'Password' })}
              leftSection={<IconLock size={16} />}
              autoComplete="current-password"
              required
              size="md"
              value={usrPwd}
              onChange={(e) => {
                setUsrPwd(e.currentTarget.value);
                if (error) setError(null);
              }}
            />
            {askNew && (
              <PasswordInput
                name="usr_pwd_new"
                label={t('password.new', { defaultValue: 'New Password' })}
                description={t('password.rule', { defaultValue: 'At least 10 characters, and not one of the most common passwords.' })}
                leftSection={<IconLock size={16} />}
                autoComplete="new-password"
                required
                autoFocus
                size="md"
                value={newPwd}
                onChange={(e) => setNewPwd(e.currentTarget.value)}
              />
            )}
            {askCode && (
              <>
                <TextInput
                  ref={codeRef}
                  name={useRecovery ? 'mfa_recovery' : 'mfa_code'}
                  label={
                    useRecovery
                      ? t('mfa.recovery_code', { defaultValue: 'Recovery code' })
                      : t('mfa.code_6', { defaultValue: '6-digit code from your authenticator app' })
                  }
                  leftSection={<IconShieldLock size={16} />}
                  inputMode={useRecovery ? 'text' : 'numeric'}
                  autoComplete="one-time-code"
                  maxLength={useRecovery ? 24 : 7}
                  spellCheck={false}
                  required
                  autoFocus
                  size="md"
                  value={mfaCode}
                  onChange={(e) => {
                    setMfaCode(e.currentTarget.value);
                    if (error) setError(null);
                  }}
                />
                <Group justify="space-between" gap="xs">
                  <Checkbox
                    name="mfa_remember"
                    label={t('mfa.remember', { defaultValue: 'Remember this device for 30 days' })}
                    checked={remember}
                    onChange={(e) => setRemember(e.currentTarget.checked)}
                  />
                  <Anchor
                    component="button"
                    type="button"
                    size="sm"
                    onClick={() => {
                      setUseRecovery((r) => !r);
                      setMfaCode('');
                      codeRef.current?.focus();
                    }}
                  >
                    {useRecovery
                      ? t('mfa.use_app', { defaultValue: 'Use a code from the app' })
                      : t('mfa.use_recovery', { defaultValue: 'Use a recovery code' })}
                  </Anchor>
                </Group>
              </>
            )}
            {enrolment && (
              <Stack gap="sm" data-testid="mfa-enrol-step">
                <Alert color="yellow" variant="light" icon={<IconShieldLock size={18} />}>
                  {t('mfa.enrol_now', {
                    defaultValue: 'Your account needs two-step sign-in and its time to set it up has passed. Set it up now to sign in.',
                  })}
                </Alert>
                <Text size="sm">
                  {t('mfa.scan', { defaultValue: '1. Scan this QR code with your authenticator app, or type the key into it.' })}
                </Text>
                <Suspense fallback={null}>
                  <EnrolmentQr enrolment={enrolment} />
                </Suspense>
                <TextInput
                  ref={codeRef}
                  name="mfa_enrol_code"
                  label={t('mfa.confirm_hint', { defaultValue: '2. Enter the code the app shows, to check it works.' })}
                  leftSection={<IconShieldLock size={16} />}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={7}
                  spellCheck={false}
                  required
                  autoFocus
                  size="md"
                  value={mfaCode}
                  onChange={(e) => {
                    setMfaCode(e.currentTarget.value);
                    if (error) setError(null);
                  }}
                />
              </Stack>
            )}
            <Button type="submit" size="md" fullWidth loading={busy} mt="xs">
              {enrolment ? t('mfa.enrol_submit', { defaultValue: 'Turn on and sign in' }) : t('login.submit', { defaultValue: 'Sign in' })}
            </Button>
            {user && (
              <Text size="sm" c="dimmed" ta="center">
                {t('common.signed_in_as', { defaultValue: 'Signed in as' })} {user.usr_nm} ·{' '}
                <Anchor component={Link} to="/landing" size="sm">
                  {t('btn.continue', { defaultValue: 'Continue' })}
                </Anchor>
              </Text>
            )}
          </Stack>
        </Paper>
        )}
        <Text size="xs" c="dimmed" ta="center" mt="lg">
          © {new Date().getFullYear()} {PRODUCT_NAME}
        </Text>
      </main>
    </div>
  );
}
