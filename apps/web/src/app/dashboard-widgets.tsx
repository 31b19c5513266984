import { Anchor, Card, Group, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Component, lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { WidgetData, WidgetKind } from '@campus/entities/features/widget.entity';
import { formatDate } from '../lib/format';
import { http } from '../lib/http-client';
import { countText, moneyText } from './dashboard-page';

/** recharts and Mantine Charts (and their styles) come in their own chunk, when a chart is first drawn. */
const WidgetChart = lazy(() => import('./widget-chart').then((m) => ({ default: m.WidgetChart })));


/** Where 'Open' goes: the page's list, filtered by the widget's conditions (shown by the widget's name). */
export function widgetHref(w: Pick<WidgetData, 'page' | 'rule' | 'wdgt_nm'>): string | null {
  if (!w.page) return null;
  if (!w.rule) return `/${w.page}/table`;
  const params = new URLSearchParams({ rule: JSON.stringify(w.rule), rule_nm: w.wdgt_nm });
  return `/${w.page}/table?${params.toString()}`;
}

export const isChart = (k: WidgetKind): boolean => k === 'bar' || k === 'pie' || k === 'donut' || k === 'line';

/** A chart that throws while drawing takes its own card down, never the dashboard. */
class WidgetBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }
  override render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

function Failed({ message }: { message: string }) {
  return (
    <Group gap={6} wrap="nowrap" c="red.7" align="flex-start">
      <IconAlertTriangle size={18} stroke={1.6} style={{ flexShrink: 0, marginTop: 2 }} />
      <Text size="sm">{message}</Text>
    </Group>
  );
}

function WidgetBody({ w }: { w: WidgetData }) {
  const { t } = useTranslation();
  const failed = t('dashboard.widget_failed', { defaultValue: 'This widget could not be loaded.' });
  if (w.error) return <Failed message={w.error} />;
  if (w.kind === 'count' || w.kind === 'sum') {
    if (w.empty) return <NoData />;
    const shown = w.money ? moneyText(w.value ?? null) : countText(typeof w.value === 'number' ? w.value : Number(w.value));
    return (
      <Text fz={30} fw={700} lh={1.2} style={{ fontVariantNumeric: 'tabular-nums' }} data-testid="widget-value">
        {shown}
      </Text>
    );
  }
  if (w.kind === 'list') {
    if (w.empty || !w.rows?.length) return <NoData text={t('dashboard.widget_nothing', { defaultValue: 'Nothing to show.' })} />;
    return (
      <Stack gap={6}>
        {w.rows.map((r) => (
          <Group key={r.key} justify="space-between" wrap="nowrap" gap="xs">
            <div style={{ minWidth: 0 }}>
              <Text size="sm" fw={600} lineClamp={2}>
                {r.title}
              </Text>
              {r.detail && (
                <Text size="xs" c="dimmed" truncate>
                  {r.detail}
                </Text>
              )}
            </div>
            {r.date && (
              <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {formatDate(r.date)}
              </Text>
            )}
          </Group>
        ))}
      </Stack>
    );
  }
  if (w.empty || !w.points?.length) return <NoData />;
  return (
    <WidgetBoundary fallback={<Failed message={failed} />}>
      <Suspense fallback={<Skeleton h={220} />}>
        <WidgetChart widget={w} />
      </Suspense>
    </WidgetBoundary>
  );
}

function NoData({ text }: { text?: string }) {
  const { t } = useTranslation();
  return (
    <Text size="lg" fw={600} c="dimmed" lh={1.2} mt={6} data-testid="widget-empty">
      {text ?? t('dashboard.widget_no_data', { defaultValue: 'No data yet' })}
    </Text>
  );
}

/**
 * The viewer's widgets (GET /api/widget/data/): numbers, charts and short lists in a grid of cards, one
 * column at 375 px, up to three at 1366 px. Each card stands alone: a widget without data says so in words,
 * and one that fails shows its error while the others draw.
 */
export function DashboardWidgets() {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: ['dashboard-widgets'],
    queryFn: ({ signal }) => http.get<{ widgets: WidgetData[] }>('/api/widget/data/', { signal }),
  });
  if (query.isError) return <Failed message={t('dashboard.widgets_failed', { defaultValue: 'The widgets could not be loaded.' })} />;
  if (query.isPending) {
    return (
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} h={160} radius="md" />
        ))}
      </SimpleGrid>
    );
  }
  const list = query.data.widgets;
  if (list.length === 0) return null;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid="dashboard-widgets">
      {list.map((w) => (
        <Card
          key={w.wdgt_cd}
          withBorder
          radius="md"
          padding="lg"
          data-testid={`widget-${w.wdgt_cd}`}
          data-widget={w.wdgt_nm}
        >
          <Group justify="space-between" align="flex-start" wrap="nowrap" mb="sm" gap="xs">
            <Text size="xs" tt="uppercase" fw={700} c="dimmed" style={{ letterSpacing: '0.04em' }}>
              {w.wdgt_nm}
            </Text>
            {widgetHref(w) && !w.error && (
              <Anchor component={Link} to={widgetHref(w) ?? ''} size="xs" style={{ whiteSpace: 'nowrap' }}>
                {t('dashboard.widget_open', { defaultValue: 'Open' })}
              </Anchor>
            )}
          </Group>
          <WidgetBody w={w} />
        </Card>
      ))}
    </SimpleGrid>
  );
}
