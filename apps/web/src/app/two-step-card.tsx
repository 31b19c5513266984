import { Alert, Badge, Box, Button, Code, CopyButton, Group, Image, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
// Also shown on the sign-in page (loaded there on demand), whose own Mantine styles leave these out.
import '@mantine/core/styles/Code.layer.css';
import '@mantine/core/styles/Image.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import { IconAlertCircle, IconCopy, IconDownload, IconPrinter, IconShieldLock } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { fallbackErrorMessage } from '../lib/http-rules';
import { http, HttpError } from '../lib/http-client';
import { toast } from '../lib/toast';

interface Status {
  enrolled: boolean;
  required: boolean;
  recovery_left: number;
  grace_until?: string | null;
}
export interface Enrolment {
  secret: string;
  otpauth_uri: string;
  qr_svg: string;
}

const errorText = (err: unknown) => (err instanceof HttpError && err.status !== 0 ? err.message : fallbackErrorMessage);

/** The 16-character key in groups of four, as an authenticator app's 'enter a key' screen shows it. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

/** The QR code an authenticator app scans and the key to type in instead (My Profile and the sign-in page). */
export function EnrolmentQr({ enrolment }: { enrolment: Enrolment }) {
  const { t } = useTranslation();
  return (
    <Group align="flex-start" gap="lg">
      <Image
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qr_svg)}`}
        alt={t('mfa.qr_alt', { defaultValue: 'QR code for the authenticator app' })}
        w={180}
        h={180}
        bg="white"
      />
      <Stack gap={4}>
        <Text size="xs" c="dimmed">
          {t('mfa.key', { defaultValue: 'Key' })}
        </Text>
        <Code fz="sm" data-testid="mfa-secret" data-secret={enrolment.secret}>
          {grouped(enrolment.secret)}
        </Code>
        <CopyButton value={enrolment.secret}>
          {({ copied, copy }) => (
            <Button variant="subtle" size="compact-sm" leftSection={<IconCopy size={14} />} onClick={copy} w="fit-content">
              {copied ? t('mfa.key_copied', { defaultValue: 'Copied' }) : t('mfa.key_copy', { defaultValue: 'Copy key' })}
            </Button>
          )}
        </CopyButton>
      </Stack>
    </Group>
  );
}

/** The ten recovery codes, shown once, with Download (.txt); `children` adds buttons beside it. */
export function RecoveryCodes({ codes, children }: { codes: string[]; children?: ReactNode }) {
  const { t } = useTranslation();
  function download() {
    const text = `${t('mfa.recovery_file', { defaultValue: 'Campus recovery codes: each signs you in once without your phone.' })}\n\n${codes.join('\n')}\n`;
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'campus-recovery-codes.txt';
    a.click();
    URL.revokeObjectURL(url);
  }
  return (
    <Stack gap="xs" data-testid="recovery-codes">
      <Alert color="blue" variant="light">
        {t('mfa.recovery_once', {
          defaultValue: 'Keep these recovery codes somewhere safe. Each one signs you in once if you lose your phone. They are shown only now.',
        })}
      </Alert>
      {/* A plain grid: with SimpleGrid the codes ran together as one line of text on the sign-in page's card. */}
      <Box style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(12rem, 1fr))', gap: 4 }}>
        {codes.map((c) => (
          <Code key={c} fz="sm" style={{ justifySelf: 'start' }}>
            {c}
          </Code>
        ))}
      </Box>
      <Group gap="xs">
        <Button variant="default" leftSection={<IconDownload size={16} />} onClick={download}>
          {t('mfa.download', { defaultValue: 'Download' })}
        </Button>
        {children}
      </Group>
    </Stack>
  );
}

/**
 * My Profile > Two-step sign-in (issue 11): set up with the QR code an authenticator app scans (or its key
 * typed in), confirmed with a first code; the ten recovery codes are shown once, to download or print. Once
 * on: recovery codes left, new ones, and turning it off when it is not required (both with a current code).
 */
export function TwoStepCard() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<Status | null>(null);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    setStatus(await http.get<Status>('/api/employee/mfa/', { silent: true }));
  }, []);
  useEffect(() => {
    load().catch((err: unknown) => setError(errorText(err)));
  }, [load]);

  async function run(action: () => Promise<void>) {
    setError(null);
    setBusy(true);
    try {
      await action();
    } catch (err) {
      setError(errorText(err));
      setCode('');
    } finally {
      setBusy(false);
    }
  }

  const start = () =>
    run(async () => {
      setCodes(null);
      setEnrolment(await http.post<Enrolment>('/api/employee/mfa/enrol', {}, { silent: true }));
    });

  const withCode = (path: 'confirm' | 'recovery' | 'disable') => (e?: FormEvent) => {
    e?.preventDefault();
    if (!/^\d{6}$/.test(code.replace(/\s+/g, ''))) {
      setError(t('mfa.enter_code', { defaultValue: 'Enter the 6-digit code from your authenticator app.' }));
      return;
    }
    void run(async () => {
      const res = await http.post<{ recovery_codes?: string[] }>(`/api/employee/mfa/${path}`, { mfa_code: code.replace(/\s+/g, '') }, { silent: true });
      setCode('');
      setEnrolment(null);
      setCodes(res.recovery_codes ?? null);
      if (path === 'confirm') toast.success(t('mfa.turned_on', { defaultValue: 'Two-step sign-in is on.' }));
      if (path === 'disable') toast.success(t('mfa.turned_off', { defaultValue: 'Two-step sign-in is off.' }));
      await load();
    });
  };

  const codeInput = (
    <TextInput
      name="mfa_code"
      label={t('mfa.code', { defaultValue: 'Code from the app' })}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={7}
      w={180}
      value={code}
      onChange={(e) => {
        setCode(e.currentTarget.value);
        if (error) setError(null);
      }}
    />
  );

  return (
    <Paper withBorder radius="md" p="lg" mt="lg" maw={960} data-testid="two-step-card">
      <Stack gap="sm">
        <Group justify="space-between">
          <Group gap="xs">
            <IconShieldLock size={20} aria-hidden />
            <Title order={3} size="h4">
              {t('mfa.title', { defaultValue: 'Two-step sign-in' })}
            </Title>
          </Group>
          {status && (
            <Badge color={status.enrolled ? 'green' : 'gray'} variant="light">
              {status.enrolled ? t('mfa.on', { defaultValue: 'On' }) : t('mfa.off', { defaultValue: 'Off' })}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {t('mfa.intro', {
            defaultValue: 'After your password, Campus asks for a 6-digit code from an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, FreeOTP, ...).',
          })}
        </Text>
        {status?.required && !status.enrolled && !enrolment && (
          <Alert color="yellow" variant="light" icon={<IconAlertCircle size={18} />}>
            {t('mfa.required_now', { defaultValue: 'Your account needs two-step sign-in. Please set it up now.' })}
            {status.grace_until &&
              ' ' +
                t('mfa.grace_toast', {
                  defaultValue: 'Set up two-step sign-in by {{date}}: after that you cannot sign in without it.',
                  date: dayjs(status.grace_until).format('D MMM YYYY'),
                })}
          </Alert>
        )}
        {error && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
            {error}
          </Alert>
        )}

        {codes && (
          <RecoveryCodes codes={codes}>
            <Button variant="default" leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
              {t('mfa.print', { defaultValue: 'Print' })}
            </Button>
          </RecoveryCodes>
        )}

        {status && !status.enrolled && !enrolment && (
          <Group>
            <Button onClick={() => void start()} loading={busy} data-testid="mfa-start">
              {t('mfa.start', { defaultValue: 'Set up two-step sign-in' })}
            </Button>
          </Group>
        )}

        {enrolment && (
          <form onSubmit={withCode('confirm')} noValidate>
            <Stack gap="sm">
              <Text size="sm">
                {t('mfa.scan', { defaultValue: '1. Scan this QR code with your authenticator app, or type the key into it.' })}
              </Text>
              <EnrolmentQr enrolment={enrolment} />
              <Text size="sm">{t('mfa.confirm_hint', { defaultValue: '2. Enter the code the app shows, to check it works.' })}</Text>
              <Group align="flex-end">
                {codeInput}
                <Button type="submit" loading={busy} data-testid="mfa-confirm">
                  {t('mfa.confirm', { defaultValue: 'Turn on' })}
                </Button>
                <Button variant="default" onClick={() => setEnrolment(null)}>
                  {t('btn.cancel', { defaultValue: 'Cancel' })}
                </Button>
              </Group>
            </Stack>
          </form>
        )}

        {status?.enrolled && (
          <form onSubmit={withCode('recovery')} noValidate>
            <Stack gap="sm">
              <Text size="sm">
                {t('mfa.recovery_left', { defaultValue: 'Recovery codes left: {{n}}', n: status.recovery_left })}
              </Text>
              <Group align="flex-end">
                {codeInput}
                <Button type="submit" variant="default" loading={busy}>
                  {t('mfa.new_recovery', { defaultValue: 'New recovery codes' })}
                </Button>
                {!status.required && (
                  <Button color="red" variant="light" loading={busy} onClick={() => withCode('disable')()}>
                    {t('mfa.turn_off', { defaultValue: 'Turn off' })}
                  </Button>
                )}
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Paper>
  );
}
