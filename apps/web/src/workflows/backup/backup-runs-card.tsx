import { Anchor, Badge, Button, Card, Group, Select, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconDatabaseExport } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePagePermission } from '../../app/page-permission-context';
import { formatDateTime } from '../../lib/format';
import { http } from '../../lib/http-client';
import { useSession } from '../../lib/session-store';
import { toast } from '../../lib/toast';

/** One run of a backup row (GET /api/backup/runs/). */
export interface BackupRun {
  bckp_run_cd: number;
  bckp_cd: number;
  bckp_fldr_nm: string | null;
  bckp_run_trigger: string;
  bckp_run_started_at: string;
  bckp_run_ms: number | null;
  bckp_run_size: number | string | null;
  bckp_run_sha256: string | null;
  bckp_run_result: 'running' | 'ok' | 'failed';
  bckp_run_error: string | null;
  bckp_run_file: string | null;
  bckp_run_pruned_at: string | null;
}

interface RunsAnswer {
  rows: BackupRun[];
  keep: number;
  root: string;
}

interface BackupRowOption {
  bckp_cd: number;
  bckp_fldr_nm: string;
}

/** Bytes as a person reads them: 17.2 MB, 563 KB. */
export function formatSize(bytes: number | string | null): string {
  if (bytes === null) return '';
  const n = Number(bytes);
  if (n >= 1024 * 1024 * 1024) return `${(n / 1024 / 1024 / 1024).toFixed(2)} GB`;
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} B`;
}

const RESULT_COLOR = { ok: 'green', failed: 'red', running: 'blue' } as const;

/**
 * Under the backup rows: 'Back up now' for a chosen row, and every run with its size, duration, checksum and
 * result (refreshed every few seconds while one is running). Administrators get a link to the jobs page.
 */
export function BackupRunsCard() {
  const { t } = useTranslation();
  const { can } = usePagePermission();
  const { isAdmin } = useSession();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<string | null>(null);
  const [waiting, setWaiting] = useState(false);

  const backups = useQuery({
    queryKey: ['backup-rows-for-runs'],
    queryFn: () => http.get<{ rows: BackupRowOption[] }>('/api/backup/?size=100'),
  });
  const runs = useQuery({
    queryKey: ['backup-runs'],
    queryFn: () => http.get<RunsAnswer>('/api/backup/runs/?size=50'),
    refetchInterval: (q) => (waiting || q.state.data?.rows.some((r) => r.bckp_run_result === 'running') ? 2000 : false),
  });
  const options = (backups.data?.rows ?? []).map((b) => ({ value: String(b.bckp_cd), label: b.bckp_fldr_nm }));
  const selected = chosen ?? options[0]?.value ?? null;

  const backUpNow = useMutation({
    mutationFn: (bckpCd: number) => http.post<{ queued: boolean }>('/api/backup/run/', { bckp_cd: bckpCd }),
    onSuccess: () => {
      toast.success(t('backup_runs.queued', { defaultValue: 'The backup has started: it is listed below when it ends.' }));
      setWaiting(true);
      window.setTimeout(() => setWaiting(false), 60_000);
      void queryClient.invalidateQueries({ queryKey: ['backup-runs'] });
    },
  });

  const rows = runs.data?.rows ?? [];
  return (
    <Card withBorder radius="md" padding="md" mt="md" data-testid="backup-runs">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs" wrap="nowrap">
            <IconDatabaseExport size={22} stroke={1.6} />
            <Title order={2} size="h5">
              {t('backup_runs.title', { defaultValue: 'Backup runs' })}
            </Title>
          </Group>
          {isAdmin && (
            <Anchor component={Link} to="/sms/jobs" size="sm" data-testid="backup-jobs-link">
              {t('backup_runs.jobs_link', { defaultValue: 'Background jobs' })}
            </Anchor>
          )}
        </Group>
        {runs.data && (
          <Text size="xs" c="dimmed">
            {t('backup_runs.where', { defaultValue: 'Written inside {{root}}; the newest {{n}} good backups of each row are kept.', root: runs.data.root, n: runs.data.keep })}
          </Text>
        )}
        {can('create') && (
          <Group gap="xs" align="flex-end" wrap="wrap">
            <Select
              label={t('backup_runs.choose', { defaultValue: 'Backup' })}
              data={options}
              value={selected}
              onChange={setChosen}
              allowDeselect={false}
              w={220}
              data-testid="backup-now-choice"
            />
            <Button
              leftSection={<IconDatabaseExport size={16} />}
              disabled={!selected}
              loading={backUpNow.isPending}
              onClick={() => selected && backUpNow.mutate(Number(selected))}
              data-testid="backup-now"
            >
              {t('backup_runs.back_up_now', { defaultValue: 'Back up now' })}
            </Button>
          </Group>
        )}
        {rows.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('backup_runs.none', { defaultValue: 'No backup has run yet.' })}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="xs" horizontalSpacing="xs" striped data-testid="backup-runs-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('backup_runs.backup', { defaultValue: 'Backup' })}</Table.Th>
                  <Table.Th>{t('backup_runs.started', { defaultValue: 'Started' })}</Table.Th>
                  <Table.Th>{t('backup_runs.result', { defaultValue: 'Result' })}</Table.Th>
                  <Table.Th style={{ textAlign: 'right' }}>{t('backup_runs.size', { defaultValue: 'Size' })}</Table.Th>
                  <Table.Th style={{ textAlign: 'right' }}>{t('backup_runs.duration', { defaultValue: 'Duration' })}</Table.Th>
                  <Table.Th>{t('backup_runs.checksum', { defaultValue: 'SHA-256' })}</Table.Th>
                  <Table.Th>{t('backup_runs.file', { defaultValue: 'File' })}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={r.bckp_run_cd} data-testid="backup-run-row" data-result={r.bckp_run_result}>
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {r.bckp_fldr_nm ?? `#${r.bckp_cd}`}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {r.bckp_run_trigger === 'manual' ? t('backup_runs.manual', { defaultValue: 'Back up now' }) : t('backup_runs.scheduled', { defaultValue: 'Scheduled' })}
                      </Text>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.bckp_run_started_at)}</Table.Td>
                    <Table.Td>
                      <Tooltip label={r.bckp_run_error ?? ''} disabled={!r.bckp_run_error} multiline w={320} withArrow>
                        <Badge variant="light" color={RESULT_COLOR[r.bckp_run_result]} data-testid="backup-run-result">
                          {t(`backup_runs.result_${r.bckp_run_result}`, { defaultValue: r.bckp_run_result })}
                        </Badge>
                      </Tooltip>
                    </Table.Td>
                    <Table.Td style={{ textAlign: 'right', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }} data-testid="backup-run-size">
                      {formatSize(r.bckp_run_size)}
                    </Table.Td>
                    <Table.Td style={{ textAlign: 'right', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
                      {r.bckp_run_ms === null ? '' : `${(r.bckp_run_ms / 1000).toFixed(1)} s`}
                    </Table.Td>
                    <Table.Td>
                      {r.bckp_run_sha256 && (
                        <Tooltip label={r.bckp_run_sha256} withArrow>
                          <Text size="xs" ff="monospace">
                            {r.bckp_run_sha256.slice(0, 12)}…
                          </Text>
                        </Tooltip>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Text size="xs" td={r.bckp_run_pruned_at ? 'line-through' : undefined} style={{ wordBreak: 'break-all' }}>
                        {r.bckp_run_file ?? r.bckp_run_error ?? ''}
                      </Text>
                      {r.bckp_run_pruned_at && (
                        <Text size="xs" c="dimmed">
                          {t('backup_runs.pruned', { defaultValue: 'Deleted (older than the kept backups)' })}
                        </Text>
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
