import { Alert, Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fallbackErrorMessage } from '../lib/http-rules';
import { http, HttpError } from '../lib/http-client';
import { toast } from '../lib/toast';

/**
 * Change Password (issue 11): one's own password, only with the current one. The server checks the policy
 * (10 characters at least, none of the 10,000 most common) and answers with the sentence shown here; the
 * new one is typed twice, since nobody sees it.
 */
export function ChangePasswordDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function close() {
    setCurrent('');
    setNext('');
    setRepeat('');
    setError(null);
    onClose();
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!current) return setError(t('password.enter_current', { defaultValue: "Please enter the 'Current Password'." }));
    if (!next) return setError(t('password.enter_new', { defaultValue: "Please enter the 'New Password'." }));
    if (next !== repeat) return setError(t('password.mismatch', { defaultValue: 'The new password and its repetition differ.' }));
    setBusy(true);
    try {
      await http.post('/api/employee/password/', { usr_pwd_current: current, usr_pwd: next }, { silent: true });
      toast.success(t('password.changed', { defaultValue: 'Your password is changed. Your other sessions have ended.' }));
      close();
    } catch (err) {
      setError(err instanceof HttpError && err.status !== 0 ? err.message : fallbackErrorMessage);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened={opened} onClose={close} title={t('password.title', { defaultValue: 'Change Password' })} centered size="sm">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('password.rule', { defaultValue: 'At least 10 characters, and not one of the most common passwords.' })}
          </Text>
          {error && (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
              {error}
            </Alert>
          )}
          <PasswordInput
            name="usr_pwd_current"
            label={t('password.current', { defaultValue: 'Current Password' })}
            autoComplete="current-password"
            required
            data-autofocus
            value={current}
            onChange={(e) => setCurrent(e.currentTarget.value)}
          />
          <PasswordInput
            name="usr_pwd"
            label={t('password.new', { defaultValue: 'New Password' })}
            autoComplete="new-password"
            required
            value={next}
            onChange={(e) => setNext(e.currentTarget.value)}
          />
          <PasswordInput
            name="usr_pwd_repeat"
            label={t('password.repeat', { defaultValue: 'Repeat New Password' })}
            autoComplete="new-password"
            required
            value={repeat}
            onChange={(e) => setRepeat(e.currentTarget.value)}
          />
          <Group justify="flex-end" mt="xs">
            <Button variant="default" onClick={close}>
              {t('btn.cancel', { defaultValue: 'Cancel' })}
            </Button>
            <Button type="submit" loading={busy} data-testid="change-password-ok">
              {t('password.submit', { defaultValue: 'Change Password' })}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
