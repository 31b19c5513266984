import { Alert, Badge, Button, Group, Modal, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconAlertCircle, IconDevices } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../lib/format';
import { fallbackErrorMessage } from '../lib/http-rules';
import { http, HttpError } from '../lib/http-client';
import { toast } from '../lib/toast';

/** One live session of the signed-in user (GET /api/employee/sessions/). */
export interface LiveSession {
  sess_cd: number;
  sess_dev: string | null;
  sess_pfm: string | null;
  sess_ip: string | null;
  sess_crt_at: string;
  sess_seen_at: string;
  is_current: boolean;
}

const SESSIONS_KEY = ['own-sessions'] as const;
const errorText = (err: unknown) => (err instanceof HttpError && err.status !== 0 ? err.message : fallbackErrorMessage);

/**
 * My Profile > Signed-in devices (issue 11): the user's live sessions (device, address, last used, this one
 * marked) and End on any other, after a confirmation. This device is left to Logout, which also clears it here.
 */
export function SignedInDevicesCard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [ending, setEnding] = useState<LiveSession | null>(null);
  const [busy, setBusy] = useState(false);
  const sessions = useQuery({
    queryKey: SESSIONS_KEY,
    queryFn: () => http.get<{ rows: LiveSession[] }>('/api/employee/sessions/', { silent: true }).then((r) => r.rows),
  });

  async function end(s: LiveSession) {
    setBusy(true);
    try {
      await http.del(`/api/employee/sessions/${s.sess_cd}`, {}, { silent: true });
      toast.success(t('sessions.ended', { defaultValue: 'That device is signed out.' }));
    } catch (err) {
      toast.danger(errorText(err));
    } finally {
      setBusy(false);
      setEnding(null);
      await queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
    }
  }

  const device = (s: LiveSession) => s.sess_dev || s.sess_pfm || t('sessions.unknown_device', { defaultValue: 'Unknown device' });

  return (
    <Paper withBorder p="lg" radius="md" maw={960} data-testid="signed-in-devices">
      <Stack gap="sm">
        <Group gap="xs" wrap="nowrap">
          <IconDevices size={20} stroke={1.6} aria-hidden />
          <Title order={5} component="h2">
            {t('sessions.title', { defaultValue: 'Signed-in devices' })}
          </Title>
        </Group>
        <Text size="sm" c="dimmed">
          {t('sessions.intro', { defaultValue: 'Where you are signed in now. End any you do not recognise, then change your password.' })}
        </Text>
        {sessions.isError && (
          <Alert color="red" icon={<IconAlertCircle size={18} />}>
            {errorText(sessions.error)}
          </Alert>
        )}
        {sessions.data && (
          <Table.ScrollContainer minWidth={300}>
            <Table verticalSpacing="xs" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('sessions.device', { defaultValue: 'Device' })}</Table.Th>
                  <Table.Th visibleFrom="sm">{t('sessions.address', { defaultValue: 'Address' })}</Table.Th>
                  <Table.Th>{t('sessions.last_used', { defaultValue: 'Last used' })}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('sessions.actions', { defaultValue: 'Actions' })}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {sessions.data.map((s) => (
                  <Table.Tr key={s.sess_cd} data-testid="session-row">
                    {/* Wide enough for the 'This device' badge on a phone. */}
                    <Table.Td miw={108}>
                      <Text size="sm">{device(s)}</Text>
                      {/* On a phone the address sits under the device: four columns do not fit 390 px. */}
                      <Text size="xs" c="dimmed" hiddenFrom="sm">
                        {s.sess_ip ?? ''}
                      </Text>
                      {s.is_current && (
                        <Badge size="xs" color="green" variant="light" data-testid="this-device">
                          {t('sessions.this_device', { defaultValue: 'This device' })}
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td visibleFrom="sm">
                      <Text size="sm">{s.sess_ip ?? ''}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{formatDateTime(s.sess_seen_at)}</Text>
                    </Table.Td>
                    <Table.Td>
                      {!s.is_current && (
                        <Button size="compact-xs" color="red" variant="light" onClick={() => setEnding(s)} aria-label={`${t('sessions.end', { defaultValue: 'End' })} ${device(s)}`}>
                          {t('sessions.end', { defaultValue: 'End' })}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <Modal opened={ending !== null} onClose={() => setEnding(null)} title={t('sessions.end_title', { defaultValue: 'Sign out that device?' })} centered size="sm">
        <Stack gap="md">
          <Text size="sm">
            {t('sessions.end_text', {
              defaultValue: '{{device}} ({{address}}) will be signed out at once.',
              device: ending ? device(ending) : '',
              address: ending?.sess_ip ?? '',
            })}
          </Text>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => setEnding(null)} disabled={busy}>
              {t('btn.cancel', { defaultValue: 'Cancel' })}
            </Button>
            <Button color="red" onClick={() => ending && void end(ending)} loading={busy} data-autofocus data-testid="confirm-end-session">
              {t('sessions.end', { defaultValue: 'End' })}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
