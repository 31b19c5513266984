import { Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconShieldExclamation } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../lib/http-client';
import { toast } from '../lib/toast';

/** One bulk-read alarm (GET /api/dashboard/ securityEvents, administrators only). */
export interface SecurityEvent {
  actn_hsty_cd: number;
  usr_cd: number;
  usr_nm: string | null;
  usr_full_nm: string | null;
  at: string;
  rows: number;
  budget: number;
  entity: string | null;
  blocked: boolean;
}

/**
 * Administrators' list of users who read more rows in an hour than the institute allows: who, when, how
 * many against the limit, and Lift while the user is still blocked (POST /api/read_budget/{usr_cd}/lift).
 */
export function SecurityEventsCard({ events }: { events: SecurityEvent[] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const lift = useMutation({
    mutationFn: (usr: number) => http.post(`/api/read_budget/${usr}/lift`, {}),
    onSuccess: () => {
      toast.success(t('dashboard.security_lifted', { defaultValue: 'The block is lifted: the user can read lists in bulk again.' }));
      void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });
  return (
    <Card withBorder radius="md" padding="md" data-testid="dashboard-security-events">
      <Stack gap="sm">
        <Group gap="xs" wrap="nowrap">
          <IconShieldExclamation size={22} stroke={1.6} color="var(--mantine-color-red-6)" />
          <Title order={2} size="h5">
            {t('dashboard.security_events', { defaultValue: 'Security events' })}
          </Title>
        </Group>
        {events.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('dashboard.security_none', { defaultValue: 'No user has read more rows than the hourly limit in the last 30 days.' })}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={340}>
            <Table verticalSpacing="xs" horizontalSpacing="xs" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('dashboard.security_user', { defaultValue: 'User' })}</Table.Th>
                  <Table.Th>{t('dashboard.security_when', { defaultValue: 'When' })}</Table.Th>
                  <Table.Th>{t('dashboard.security_rows', { defaultValue: 'Rows read / limit' })}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {events.map((ev) => (
                  <Table.Tr key={ev.actn_hsty_cd}>
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {ev.usr_full_nm ?? ev.usr_nm}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {ev.usr_nm}
                        {ev.entity ? ` · ${t(`entity.${ev.entity}.label`, { defaultValue: ev.entity })}` : ''}
                      </Text>
                    </Table.Td>
                    <Table.Td>{ev.at}</Table.Td>
                    <Table.Td style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
                      {ev.rows.toLocaleString('en-IN')} / {ev.budget.toLocaleString('en-IN')}
                    </Table.Td>
                    <Table.Td style={{ textAlign: 'right' }}>
                      {ev.blocked ? (
                        <Button size="compact-xs" variant="light" color="red" loading={lift.isPending && lift.variables === ev.usr_cd} onClick={() => lift.mutate(ev.usr_cd)}>
                          {t('dashboard.security_lift', { defaultValue: 'Lift block' })}
                        </Button>
                      ) : (
                        <Badge variant="light" color="gray">
                          {t('dashboard.security_lifted_badge', { defaultValue: 'Lifted' })}
                        </Badge>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Card>
  );
}
