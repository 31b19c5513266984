import type { AnyEntity } from '@campus/entities/define';
import { pagesOfEntity, type PageDef } from '@campus/entities/pages';
import { entity as entityNamed, findEntity } from '@campus/entities/registry';
import { ActionIcon, Alert, Badge, Button, Group, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowLeft, IconDownload, IconPencil, IconRefresh, IconSearch, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState, type JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { usePagePermission } from '../../app/page-permission-context';
import { formatColumnCell } from '../../engine/cell-format';
import { layoutFor } from '../../engine/column-layout';
import { entityUrl, type EntityRow, type LinkOption } from '../../engine/entity-api';
import { orderColumns, translateColumns } from '../../engine/entity-columns';
import { fieldLabel, pageLabel } from '../../engine/entity-labels';
import { modePath, parseMode } from '../../engine/entity-mode';
import { MOBILE_QUERY } from '../../engine/responsive';
import { recentLayout } from '../../engine/table-settings-api';
import { lastListSearch, useEntityList } from '../../engine/use-entity-list';
import { http, HttpError } from '../../lib/http-client';
import { useSession } from '../../lib/session-store';
import { toast } from '../../lib/toast';
import { definitionOf, pageToRunUnder, reportRun, runHeaders, type ReportDefinition, type ReportFilter } from './report-definition';
import { useMyPages } from './use-my-pages';

const EntityGrid = lazy(() => import('../../engine/entity-grid').then((m) => ({ default: m.EntityGrid })));

const MODULE = 'reports';
const PAGE = 'custom_report';

/**
 * The view mode of a custom report runs it: the rows come from the entity's own list route, asked under a
 * page of that entity the user holds (pagename/modulename), so its permission, institute, year and 'his
 * students only' apply exactly as on that page. Without such a page nothing is asked.
 */
export function CustomReportRunPage(): JSX.Element {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const mode = parseMode(params['*']);
  const id = mode && mode.kind === 'view' ? mode.id : '';
  const self = entityNamed('custom_report');
  const my = useMyPages();
  const back = () => navigate(`${modePath(MODULE, PAGE, 'table')}${lastListSearch(self.name)}`);

  const stored = useQuery({
    queryKey: ['custom-report', id],
    retry: false,
    queryFn: ({ signal }) => http.get<EntityRow>(entityUrl(self, id), { signal }),
  });

  if (stored.isPending || my.isLoading) return <Skeleton height={320} radius="md" />;
  const backButton = (
    <Button variant="light" size="xs" leftSection={<IconArrowLeft size={14} />} onClick={back}>
      {t('custom_report.back', { defaultValue: 'Back to reports' })}
    </Button>
  );
  if (!stored.data) {
    return (
      <Alert color="red" title={t('custom_report.not_found', { defaultValue: 'This report was not found.' })}>
        {backButton}
      </Alert>
    );
  }
  const row = stored.data;
  const def = definitionOf(row);
  const base = findEntity(def.entity);
  const runPage = base ? pageToRunUnder(base.name, my.allowed) : undefined;
  if (!base) {
    return (
      <Alert color="orange" title={String(row.cst_rpt_nm ?? '')}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{t('custom_report.unknown_entity', { defaultValue: 'This report is on a page that no longer exists.' })}</Text>
          {backButton}
        </Stack>
      </Alert>
    );
  }
  if (!runPage) {
    const pg = pagesOfEntity(base.name)[0];
    return (
      <Alert color="orange" title={String(row.cst_rpt_nm ?? '')} data-testid="report-no-page">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">
            {t('custom_report.no_page', { defaultValue: 'You cannot run this report: you are not allowed to open the {{page}} page.', page: pg ? pageLabel(t, pg) : base.label })}
          </Text>
          {backButton}
        </Stack>
      </Alert>
    );
  }
  return <ReportGrid key={`${id}:${String(row.row_ver)}`} id={id} row={row} def={def} entity={base} runPage={runPage} onBack={back} canExport={my.can(runPage.module, runPage.page, 'export')} />;
}

interface ReportGridProps {
  id: string;
  row: EntityRow;
  def: ReportDefinition;
  entity: AnyEntity;
  runPage: PageDef;
  canExport: boolean;
  onBack: () => void;
}

function ReportGrid({ id, row, def, entity, runPage, canExport, onBack }: ReportGridProps): JSX.Element {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { can, tableSettings } = usePagePermission();
  const { user } = useSession();
  const compact = useMediaQuery(MOBILE_QUERY) ?? false;
  const run = useMemo(() => reportRun(def, entity), [def, entity]);
  const headers = useMemo(() => runHeaders(runPage), [runPage]);
  const list = useEntityList(entity, { ...run.list, headers });
  const [visible, setVisible] = useState<string[]>([]);
  const [exporting, setExporting] = useState(false);
  const name = String(row.cst_rpt_nm ?? '');
  const columns = useMemo(() => translateColumns(t, entity, list.columns), [t, entity, list.columns]);
  // Each report keeps its own column layout (Update State), apart from the entity's own grid.
  const layoutName = `custom_report_${id}`;
  const userCode = user?.usr_cd ?? null;
  const savedLayout = useMemo(() => {
    const recent = recentLayout(userCode, layoutName);
    return recent !== undefined ? recent : layoutFor(tableSettings, layoutName);
  }, [tableSettings, layoutName, userCode]);

  const doExport = async () => {
    setExporting(true);
    try {
      const { exportToExcel } = await import('../../engine/export-excel');
      await exportToExcel({ entity, columns: orderColumns(columns, visible), selection: list.selection, params: list.params, headers, title: name });
    } catch (e) {
      if (!(e instanceof HttpError)) toast.danger(e instanceof Error ? e.message : t('list.export_failed', { defaultValue: 'The export failed.' }));
    } finally {
      setExporting(false);
    }
  };

  const gridHeight = compact ? 'calc(100dvh - 340px)' : 'calc(100dvh - 280px)';
  return (
    <Stack gap="xs" data-testid="custom-report-run">
      <Group justify="space-between" align="center" gap="xs" wrap="wrap">
        <Stack gap={2}>
          <Title order={4}>{name}</Title>
          <Text size="xs" c="dimmed">
            {t('custom_report.based_on', { defaultValue: 'On {{page}}', page: pageLabel(t, runPage) })}
            {row.cst_rpt_dscr ? ` · ${String(row.cst_rpt_dscr)}` : ''}
          </Text>
        </Stack>
        <TextInput
          size="xs"
          w={compact ? '100%' : 260}
          placeholder={t('grid.quick_search', { defaultValue: 'Search' })}
          aria-label={t('grid.quick_search', { defaultValue: 'Search' })}
          leftSection={<IconSearch size={14} />}
          rightSection={
            list.searchText ? (
              <ActionIcon size="sm" variant="subtle" aria-label={t('grid.clear_search', { defaultValue: 'Clear search' })} onClick={() => list.setSearchText('')}>
                <IconX size={14} />
              </ActionIcon>
            ) : null
          }
          value={list.searchText}
          onChange={(e) => list.setSearchText(e.currentTarget.value)}
        />
      </Group>

      {def.filters.length > 0 && (
        <Group gap={6} wrap="wrap" data-testid="report-filters">
          <Text size="xs" c="dimmed">
            {t('custom_report.filtered_by', { defaultValue: 'Filtered by' })}
          </Text>
          {def.filters
            .filter((f) => Object.hasOwn(entity.fields, f.field))
            .map((f) => (
              <FilterBadge key={f.field} entity={entity} filter={f} />
            ))}
        </Group>
      )}
      {run.skipped.length > 0 && (
        <Alert color="yellow" py={6}>
          {t('custom_report.skipped', { defaultValue: 'Left out (no longer on the page): {{fields}}', fields: run.skipped.join(', ') })}
        </Alert>
      )}

      <Group gap={6} wrap="wrap">
        <Button size="xs" variant="light" color="gray" leftSection={<IconArrowLeft size={16} />} onClick={onBack}>
          {t('custom_report.back', { defaultValue: 'Back to reports' })}
        </Button>
        {can('edit') && (
          <Button size="xs" variant="light" leftSection={<IconPencil size={16} />} onClick={() => navigate(modePath(MODULE, PAGE, 'update', id))} data-testid="report-edit">
            {t('custom_report.edit', { defaultValue: 'Edit definition' })}
          </Button>
        )}
        {canExport && (
          <Button size="xs" variant="light" color="teal" leftSection={<IconDownload size={16} />} loading={exporting} onClick={() => void doExport()} data-testid="btn-export">
            {t('btn.export', { defaultValue: 'Export' })}
          </Button>
        )}
        <Button size="xs" variant="light" color="gray" leftSection={<IconRefresh size={16} />} loading={list.fetching && !list.loading} onClick={() => void list.refresh()}>
          {t('btn.refresh', { defaultValue: 'Refresh' })}
        </Button>
      </Group>

      <Suspense fallback={<Skeleton height={gridHeight} radius="sm" />}>
        <EntityGrid
          entity={entity}
          columns={columns}
          rows={list.rows}
          loading={list.loading}
          sort={list.sort}
          onSortChange={list.setSort}
          onSelectionChange={list.setSelection}
          savedLayout={savedLayout}
          layoutName={layoutName}
          onVisibleColumnsChange={setVisible}
          userCode={userCode}
          height={gridHeight}
          paging={{ page: list.page, pageCount: list.pageCount, total: list.total, size: list.size, onPage: list.setPage, onSize: list.setSize }}
        />
      </Suspense>
    </Stack>
  );
}

/** 'Class: VI' — a link's value shown by its name (the target's options route), others as the grid shows them. */
function FilterBadge({ entity, filter }: { entity: AnyEntity; filter: ReportFilter }): JSX.Element {
  const { t } = useTranslation();
  const f = entity.fields[filter.field];
  const target = f.kind === 'link' ? findEntity(f.to) : undefined;
  const linked = useQuery({
    queryKey: ['link-options', f.kind === 'link' ? f.to : '', 'ids', filter.value],
    enabled: !!target,
    staleTime: 60_000,
    queryFn: ({ signal }) => http.get<LinkOption[]>(entityUrl(target as AnyEntity, 'options'), { query: { ids: filter.value }, signal, silent: true }),
  });
  const shown =
    f.kind === 'link'
      ? (linked.data?.find((o) => String(o.value) === filter.value)?.label ?? `#${filter.value}`)
      : formatColumnCell(entity, filter.field, f.kind === 'bool' ? filter.value === 'true' : filter.value, t);
  return (
    <Badge variant="light" tt="none">
      {fieldLabel(t, entity, filter.field)}: {shown}
    </Badge>
  );
}
