import { Alert, Card, Group, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCalendarCheck, IconCash, IconSchool, IconUsers, type Icon } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../lib/format';
import { http } from '../lib/http-client';
import { useSession } from '../lib/session-store';

/** GET /api/dashboard/ (docs/api-contract.md); feesCollected is a decimal string. */
export interface DashboardCounts {
  students: number;
  employees: number;
  attendanceToday: number;
  feesCollected: string;
}

interface Tile {
  key: string;
  label: string;
  value: string;
  icon: Icon;
  color: string;
}

export function DashboardPage() {
  const { t } = useTranslation();
  const { institute, year } = useSession();
  const query = useQuery({
    queryKey: ['dashboard'],
    queryFn: ({ signal }) => http.get<DashboardCounts>('/api/dashboard/', { signal }),
  });
  const d = query.data;
  const count = (n: number | undefined): string => (typeof n === 'number' ? n.toLocaleString('en-IN') : '0');

  const tiles: Tile[] = [
    { key: 'students', label: t('dashboard.students', { defaultValue: 'Students' }), value: count(d?.students), icon: IconSchool, color: 'campus' },
    { key: 'employees', label: t('dashboard.employees', { defaultValue: 'Employees' }), value: count(d?.employees), icon: IconUsers, color: 'grape' },
    {
      key: 'attendance',
      label: t('dashboard.attendance_today', { defaultValue: 'Attendance today' }),
      value: count(d?.attendanceToday),
      icon: IconCalendarCheck,
      color: 'teal',
    },
    {
      key: 'fees',
      label: t('dashboard.fees_collected', { defaultValue: 'Fees collected' }),
      value: formatMoney(d?.feesCollected ?? '0', { group: true }),
      icon: IconCash,
      color: 'orange',
    },
  ];

  return (
    <Stack gap="lg" p={{ base: 0, sm: 'xs' }}>
      <div>
        <Title order={1} size="h3">
          {t('dashboard.title', { defaultValue: 'Dashboard' })}
        </Title>
        <Text c="dimmed" size="sm">
          {institute?.inst_nm}
          {year && <span style={{ whiteSpace: 'nowrap' }}> · {year.label}</span>}
        </Text>
      </div>
      {query.isError && (
        <Alert color="red" variant="light">
          {t('dashboard.failed', { defaultValue: 'The dashboard could not be loaded.' })}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="md">
        {tiles.map((tile) => (
          <Card key={tile.key} withBorder radius="md" padding="lg" data-testid={`dashboard-${tile.key}`}>
            <Group justify="space-between" align="flex-start" wrap="nowrap">
              <div>
                <Text size="xs" tt="uppercase" fw={700} c="dimmed" style={{ letterSpacing: '0.04em' }}>
                  {tile.label}
                </Text>
                {query.isPending ? (
                  <Skeleton h={34} w={110} mt={8} />
                ) : (
                  <Text fz={30} fw={700} lh={1.2} mt={4} style={{ fontVariantNumeric: 'tabular-nums' }}>
                    {tile.value}
                  </Text>
                )}
              </div>
              <ThemeIcon size={44} radius="md" variant="light" color={tile.color}>
                <tile.icon size={24} stroke={1.6} />
              </ThemeIcon>
            </Group>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
