import { Badge, Button, Card, Group, Pagination, Select, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
// Only this page pages a table with Pagination: its styles come with it (the signed-in CSS stays smaller).
import '@mantine/core/styles/Pagination.layer.css';
import { IconPlayerPlay, IconRefresh } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { http } from '../../lib/http-client';
import { useSession } from '../../lib/session-store';
import { toast } from '../../lib/toast';
import type { JobRun, JobState } from '@campus/entities/master/background-job';


interface JobKind {
  name: string;
  label: string;
  cron: string | null;
  runNow: boolean;
}

interface JobsAnswer {
  rows: JobRun[];
  total: number;
  jobs: JobKind[];
  workers: boolean;
}

const STATES: readonly JobState[] = ['created', 'retry', 'active', 'completed', 'failed', 'cancelled'];
const STATE_COLOR: Record<JobState, string> = { created: 'gray', retry: 'orange', active: 'blue', completed: 'green', failed: 'red', cancelled: 'gray' };
const SIZE = 25;

/**
 * Background jobs, for administrators (the server refuses others too): every run of the queue with its
 * state, tries and last error, newest first, and 'Run now' for the kinds that need no row of their own.
 */
export function JobsPage() {
  const { t } = useTranslation();
  const { isAdmin } = useSession();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [name, setName] = useState<string | null>(null);
  const [state, setState] = useState<string | null>(null);

  const params = new URLSearchParams({ page: String(page), size: String(SIZE) });
  if (name) params.set('name', name);
  if (state) params.set('state', state);
  const list = useQuery({
    queryKey: ['jobs', page, name, state],
    queryFn: () => http.get<JobsAnswer>(`/api/job/?${params.toString()}`),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
    enabled: isAdmin,
  });
  const runNow = useMutation({
    mutationFn: (job: string) => http.post('/api/job/run/', { name: job }),
    onSuccess: () => {
      toast.success(t('jobs.queued', { defaultValue: 'The job is queued: it is listed below.' }));
      void queryClient.invalidateQueries({ queryKey: ['jobs'] });
    },
  });

  if (!isAdmin) return <Navigate to="/page_not_autherised" replace />;
  const data = list.data;
  const kinds = data?.jobs ?? [];
  const stateLabel = (s: JobState): string => t(`jobs.state_${s}`, { defaultValue: s });

  return (
    <Stack gap="md" data-testid="jobs-page">
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h3">
          {t('jobs.title', { defaultValue: 'Background jobs' })}
        </Title>
        <Button variant="light" size="xs" leftSection={<IconRefresh size={16} />} onClick={() => void list.refetch()} loading={list.isFetching}>
          {t('jobs.refresh', { defaultValue: 'Refresh' })}
        </Button>
      </Group>
      {data && !data.workers && (
        <Text size="sm" c="orange">
          {t('jobs.no_workers', { defaultValue: 'This server process runs no workers: jobs wait for a process that does.' })}
        </Text>
      )}
      <Card withBorder radius="md" padding="md">
        <Stack gap="xs">
          <Title order={2} size="h5">
            {t('jobs.kinds', { defaultValue: 'Kinds of job' })}
          </Title>
          <Table.ScrollContainer minWidth={0}>
            <Table verticalSpacing="xs" horizontalSpacing="xs">
              <Table.Tbody>
                {kinds.map((k) => (
                  <Table.Tr key={k.name}>
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {t(`jobs.kind.${k.name}`, { defaultValue: k.label })}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {k.name}
                        {k.cron ? ` · ${k.cron}` : ''}
                      </Text>
                    </Table.Td>
                    <Table.Td style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                      {k.runNow && (
                        <Button
                          size="compact-xs"
                          variant="light"
                          leftSection={<IconPlayerPlay size={14} />}
                          loading={runNow.isPending && runNow.variables === k.name}
                          onClick={() => runNow.mutate(k.name)}
                          data-testid={`job-run-${k.name}`}
                        >
                          {t('jobs.run_now', { defaultValue: 'Run now' })}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Stack>
      </Card>
      <Card withBorder radius="md" padding="md">
        <Stack gap="sm">
          <Group gap="xs" wrap="wrap" align="flex-end">
            <Select
              label={t('jobs.kind_filter', { defaultValue: 'Job' })}
              placeholder={t('jobs.all', { defaultValue: 'All' })}
              data={kinds.map((k) => ({ value: k.name, label: t(`jobs.kind.${k.name}`, { defaultValue: k.label }) }))}
              value={name}
              onChange={(v) => {
                setName(v);
                setPage(1);
              }}
              clearable
              w={220}
              data-testid="jobs-kind-filter"
            />
            <Select
              label={t('jobs.state', { defaultValue: 'State' })}
              placeholder={t('jobs.all', { defaultValue: 'All' })}
              data={STATES.map((s) => ({ value: s, label: stateLabel(s) }))}
              value={state}
              onChange={(v) => {
                setState(v);
                setPage(1);
              }}
              clearable
              w={160}
            />
          </Group>
          {data && data.rows.length === 0 ? (
            <Text c="dimmed" size="sm">
              {t('jobs.none', { defaultValue: 'No job has run yet.' })}
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={720}>
              <Table verticalSpacing="xs" horizontalSpacing="xs" striped data-testid="jobs-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('jobs.kind_filter', { defaultValue: 'Job' })}</Table.Th>
                    <Table.Th>{t('jobs.state', { defaultValue: 'State' })}</Table.Th>
                    <Table.Th style={{ textAlign: 'right' }}>{t('jobs.attempts', { defaultValue: 'Retries' })}</Table.Th>
                    <Table.Th>{t('jobs.created', { defaultValue: 'Queued' })}</Table.Th>
                    <Table.Th>{t('jobs.started', { defaultValue: 'Started' })}</Table.Th>
                    <Table.Th>{t('jobs.completed', { defaultValue: 'Ended' })}</Table.Th>
                    <Table.Th>{t('jobs.last_error', { defaultValue: 'Last error' })}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {(data?.rows ?? []).map((r) => (
                    <Table.Tr key={r.id} data-testid="job-row" data-job={r.name} data-state={r.state}>
                      <Table.Td style={{ minWidth: 180 }}>
                        <Text size="sm" fw={600}>
                          {t(`jobs.kind.${r.name}`, { defaultValue: r.label })}
                        </Text>
                        {r.singleton_key && (
                          <Text size="xs" c="dimmed">
                            #{r.singleton_key}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap', minWidth: 120 }}>
                        <Badge variant="light" color={STATE_COLOR[r.state]} style={{ overflow: 'visible' }}>
                          {stateLabel(r.state)}
                        </Badge>
                      </Table.Td>
                      <Table.Td style={{ textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>
                        {r.retry_count} / {r.retry_limit}
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.created_on)}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{r.started_on ? formatDateTime(r.started_on) : ''}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{r.completed_on ? formatDateTime(r.completed_on) : ''}</Table.Td>
                      <Table.Td>
                        {r.last_error && (
                          <Tooltip label={r.last_error} multiline w={360} withArrow>
                            <Text size="xs" c="red" lineClamp={2}>
                              {r.last_error}
                            </Text>
                          </Tooltip>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {data && data.total > SIZE && (
            <Group justify="flex-end">
              <Pagination total={Math.ceil(data.total / SIZE)} value={page} onChange={setPage} size="sm" />
            </Group>
          )}
        </Stack>
      </Card>
    </Stack>
  );
}
