/*
 * The dashboard's charts: Mantine Charts over recharts, in a chunk of their own (dashboard-widgets.tsx loads it
 * with React.lazy when a widget has a chart to draw), so neither the sign-in page nor the first list carries
 * them. Their styles come with this chunk: Mantine Charts' own (the layered file, like the per-component
 * Mantine files of mantine-signed-in.css) and ColorSwatch, which the charts' legend and tooltip use.
 */
import '@mantine/core/styles/ColorSwatch.layer.css';
import '@mantine/charts/styles.layer.css';
import { BarChart, DonutChart, LineChart, PieChart } from '@mantine/charts';
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate, formatMoney } from '../lib/format';
import type { WidgetData } from '@campus/entities/features/widget.entity';

const PALETTE = ['campus.6', 'teal.6', 'grape.6', 'orange.6', 'indigo.6', 'pink.6', 'lime.7', 'cyan.7', 'yellow.7', 'red.6'];

/** A chart of one widget's points; the numbers shown are the server's (money with 2 decimals). */
export function WidgetChart({ widget }: { widget: WidgetData }) {
  const { t } = useTranslation();
  const points = widget.points ?? [];
  const money = widget.money;
  const fmt = (v: number): string => (money ? formatMoney(v) : v.toLocaleString('en-IN'));
  // What a screen reader hears instead of the drawing: every group (or day) with its number.
  const summary = `${widget.wdgt_nm}: ${points.map((p) => `${p.label} ${fmt(money ? Number(p.amount ?? p.value) : p.value)}`).join(', ')}`;
  const seriesLabel = money ? t('dashboard.widget_amount', { defaultValue: 'Amount' }) : t('dashboard.widget_count', { defaultValue: 'Count' });

  if (widget.kind === 'pie' || widget.kind === 'donut') {
    const data = points.map((p, i) => ({ name: p.label, value: p.value, color: PALETTE[i % PALETTE.length] }));
    const Chart = widget.kind === 'pie' ? PieChart : DonutChart;
    return (
      <div data-testid="widget-chart" data-kind={widget.kind} role="img" aria-label={summary}>
        <Chart data={data} withTooltip tooltipDataSource="segment" valueFormatter={fmt} size={170} mx="auto" withLabelsLine={false} />
        <Text size="xs" c="dimmed" ta="center" mt={4}>
          {data.map((d) => `${d.name}: ${fmt(d.value)}`).join(' · ')}
        </Text>
      </div>
    );
  }

  if (widget.kind === 'line') {
    const data = points.map((p) => ({ day: formatDate(p.key), value: p.value }));
    // Added up in whole paise: the server's amounts have at most 2 decimals, so the total is exact.
    const total = money ? points.reduce((a, p) => a + Math.round(Number(p.amount ?? p.value) * 100), 0) / 100 : points.reduce((a, p) => a + p.value, 0);
    return (
      <div data-testid="widget-chart" data-kind="line" role="img" aria-label={summary}>
        <Text size="sm" c="dimmed" mb={6}>
          {t('dashboard.widget_total', { defaultValue: 'Total: {{total}}', total: fmt(total) })}
        </Text>
        <LineChart
          h={220}
          data={data}
          dataKey="day"
          series={[{ name: 'value', label: seriesLabel, color: 'campus.6' }]}
          curveType="monotone"
          withDots={false}
          tickLine="none"
          gridAxis="y"
          valueFormatter={fmt}
          xAxisProps={{ minTickGap: 24 }}
          yAxisProps={{ width: money ? 72 : 40 }}
        />
      </div>
    );
  }

  const data = points.map((p) => ({ group: p.label, value: p.value }));
  return (
    <div data-testid="widget-chart" data-kind="bar" role="img" aria-label={summary}>
      <BarChart
        h={220}
        data={data}
        dataKey="group"
        series={[{ name: 'value', label: seriesLabel, color: 'campus.6' }]}
        tickLine="none"
        gridAxis="y"
        valueFormatter={fmt}
        withBarValueLabel={data.length <= 12}
        // Headroom above the tallest bar for its value label (it would touch the card's title).
        yAxisProps={{ width: money ? 72 : 36, domain: [0, (max: number) => Math.max(5, Math.ceil((max * 1.15) / 5) * 5)] }}
      />
    </div>
  );
}
