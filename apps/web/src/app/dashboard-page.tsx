import { Alert, Card, Group, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCalendarCheck, IconCash, IconSchool, IconUsers, type Icon } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../lib/format';
import { http } from '../lib/http-client';
import { useSession } from '../lib/session-store';
import { DashboardWidgets } from './dashboard-widgets';
import { NoActiveYearHint } from './route-guard';
import { SecurityEventsCard, type SecurityEvent } from './security-events-card';

/**
 * GET /api/dashboard/ (docs/api-contract.md); feesCollected is a decimal string, left out for users who hold
 * no fee page (their card is not shown). null = nothing to count yet (no academic year; for attendance, no
 * section marked today), shown as words, never as a zero that reads like a real count.
 */
export interface DashboardCounts {
  students: number | null;
  employees: number | null;
  attendanceToday: number | null;
  feesCollected?: string | null;
  /** Administrators only: the bulk-read alarms of the last 30 days (their card is not shown to others). */
  securityEvents?: SecurityEvent[];
}

interface Tile {
  key: string;
  label: string;
  /** null: nothing to count yet; `empty` says why. */
  value: string | null;
  empty?: string;
  icon: Icon;
  color: string;
}

/** Shown while there is no answer to show (the call failed); the alert above says why. */
const NO_VALUE = '—';

/** A count for display; null when the server says the module is not set up. */
export function countText(n: number | null | undefined): string | null {
  if (n === null) return null;
  return typeof n === 'number' ? n.toLocaleString('en-IN') : NO_VALUE;
}

/**
 * Money as the grids show it (formatMoney: 2 decimals, Indian grouping, 1,00,000.50), formatted on the
 * decimal string itself (never through a float); null: not set up.
 */
export function moneyText(value: string | number | null | undefined): string | null {
  if (value === null) return null;
  if (value === undefined) return NO_VALUE;
  return formatMoney(value) || NO_VALUE;
}

export function DashboardPage() {
  const { t } = useTranslation();
  const { institute, year } = useSession();
  const notSetUp = t('dashboard.notSetUp', { defaultValue: 'Not set up' });
  const query = useQuery({
    queryKey: ['dashboard'],
    queryFn: ({ signal }) => http.get<DashboardCounts>('/api/dashboard/', { signal }),
  });
  const d = query.data;

  const tiles: Tile[] = [
    { key: 'students', label: t('dashboard.students', { defaultValue: 'Students' }), value: countText(d?.students), icon: IconSchool, color: 'campus' },
    { key: 'employees', label: t('dashboard.employees', { defaultValue: 'Employees' }), value: countText(d?.employees), icon: IconUsers, color: 'grape' },
    {
      key: 'attendance',
      label: t('dashboard.attendance_today', { defaultValue: 'Attendance today' }),
      value: countText(d?.attendanceToday),
      // With a year, null means no section has been marked yet today.
      empty: year ? t('dashboard.notMarked', { defaultValue: 'Not marked yet' }) : undefined,
      icon: IconCalendarCheck,
      color: 'teal',
    },
    ...(d && !('feesCollected' in d)
      ? []
      : [
          {
            key: 'fees',
            label: t('dashboard.fees_collected', { defaultValue: 'Fees collected today' }),
            value: moneyText(d?.feesCollected),
            icon: IconCash,
            color: 'orange',
          },
        ]),
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
      {!year && <NoActiveYearHint />}
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
                ) : tile.value === null ? (
                  <Text size="lg" fw={600} c="dimmed" lh={1.2} mt={10}>
                    {tile.empty ?? notSetUp}
                  </Text>
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
      <DashboardWidgets />
      {d?.securityEvents && <SecurityEventsCard events={d.securityEvents} />}
    </Stack>
  );
}
