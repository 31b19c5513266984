import { hasRoute, type AnyEntity } from '@campus/entities/define';
import type { PageDef } from '@campus/entities/pages';
import { ActionIcon, Button, Group, Skeleton, Stack, TextInput, Title, Tooltip } from '@mantine/core';
import { useHotkeys, useMediaQuery } from '@mantine/hooks';
import {
  IconCopy,
  IconDownload,
  IconEye,
  IconInfoCircle,
  IconPencil,
  IconPlus,
  IconRefresh,
  IconSearch,
  IconToggleRight,
  IconTrash,
  IconUpload,
  IconX,
} from '@tabler/icons-react';
import { lazy, Suspense, useCallback, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { usePagePermission } from '../app/page-permission-context';
import { HttpError, http } from '../lib/http-client';
import { useSession } from '../lib/session-store';
import { toast } from '../lib/toast';
import { layoutFor } from './column-layout';
import { entityUrl, rowId, type EntityRow } from './entity-api';
import { orderColumns, translateColumns } from './entity-columns';
import { entityLabel, pageLabel, toggleLabel } from './entity-labels';
import { modePath } from './entity-mode';
import { ConfirmDeleteDialog, TableInfoDialog } from './list-dialogs';
import { countText, selectionMessage } from './list-messages';
import { MOBILE_QUERY } from './responsive';
import { recentLayout } from './table-settings-api';
import { useEntityList } from './use-entity-list';

// AG Grid is most of the list page's weight: it loads with the first grid, not with the shell or login.
const EntityGrid = lazy(() => import('./entity-grid').then((m) => ({ default: m.EntityGrid })));

export interface EntityListPageProps {
  entity: AnyEntity;
  page: PageDef;
  /** table/search mode: the search box takes the focus. */
  searchMode: boolean;
  /** A workflow screen replaces the generic form, so create/edit work even without the generic routes. */
  hasFormOverride: boolean;
}

interface ToolbarButtonProps {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  compact: boolean;
  loading?: boolean;
  color?: string;
  testId: string;
}

/** Labelled on desktop; icon-only with a tooltip on phones so the toolbar fits one or two lines. */
function ToolbarButton({ label, icon, onClick, compact, loading, color, testId }: ToolbarButtonProps) {
  if (compact) {
    return (
      <Tooltip label={label} withArrow>
        <ActionIcon variant="light" size="lg" color={color} aria-label={label} onClick={onClick} loading={loading} data-testid={testId}>
          {icon}
        </ActionIcon>
      </Tooltip>
    );
  }
  return (
    <Button size="xs" variant="light" color={color} leftSection={icon} onClick={onClick} loading={loading} data-testid={testId}>
      {label}
    </Button>
  );
}

const asBool = (v: unknown): boolean => v === true || v === 1 || v === '1' || v === 'true';

export function EntityListPage({ entity, page, searchMode, hasFormOverride }: EntityListPageProps) {
  const list = useEntityList(entity);
  const permission = usePagePermission();
  const { user } = useSession();
  const navigate = useNavigate();
  const compact = useMediaQuery(MOBILE_QUERY) ?? false;
  const { t } = useTranslation();

  const [visibleColIds, setVisibleColIds] = useState<string[]>([]);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [infoOpen, setInfoOpen] = useState(false);
  const [toggling, setToggling] = useState<string | null>(null);

  const { can } = permission;
  const canCreate = can('create') && (hasFormOverride || hasRoute(entity, 'create'));
  const canEdit = can('edit') && (hasFormOverride || hasRoute(entity, 'update'));
  const canView = can('view') && hasRoute(entity, 'get');
  // A clone is saved as a create (POST), which the route and the server allow only with the create button.
  const canClone = can('clone') && can('create') && hasRoute(entity, 'create') && hasRoute(entity, 'get');
  const canDelete = can('delete') && hasRoute(entity, 'delete');
  const canExport = can('export');
  const canImport = can('import') && hasRoute(entity, 'import');
  const toggles = (entity.toggles ?? []).filter((t) => can(t.button) && hasRoute(entity, 'update'));

  const userCode = user?.usr_cd ?? null;
  const savedLayout = useMemo(() => {
    const recent = recentLayout(userCode, entity.name);
    return recent !== undefined ? recent : layoutFor(permission.tableSettings, entity.name);
  }, [permission.tableSettings, entity.name, userCode]);
  // Labels follow the language (t changes with it); the grid, the Columns menu and the export share them.
  const columns = useMemo(() => translateColumns(t, entity, list.columns), [t, entity, list.columns]);
  const searchable = useMemo(() => columns.filter((c) => c.searchable).map((c) => c.label), [columns]);
  const { selection } = list;
  // The spec's {table name}: english.json holds the declared label, so English messages read as the spec's.
  const tableName = entityLabel(t, entity);

  const go = useCallback(
    (mode: 'create' | 'update' | 'view' | 'clone' | 'import', id?: string) => navigate(modePath(page.module, page.page, mode, id)),
    [navigate, page.module, page.page],
  );

  /** The one selected row, or null after telling the user what to select (spec section 5). */
  const single = (): EntityRow | null => {
    // No selection gets 'select the records'; several get 'select exactly one'.
    const problem = selectionMessage(t, tableName, selection.length, selection.length === 0 ? 'some' : 'one');
    if (problem === null) return selection[0];
    toast.warning(problem);
    return null;
  };

  const onEdit = () => {
    const row = single();
    if (row) go('update', rowId(entity, row));
  };
  const onView = () => {
    const row = single();
    if (row) go('view', rowId(entity, row));
  };
  const onClone = () => {
    const row = single();
    if (row) go('clone', rowId(entity, row));
  };
  const onDelete = () => {
    const problem = selectionMessage(t, tableName, selection.length, 'some');
    if (problem) toast.warning(problem);
    else setConfirmDelete(true);
  };
  const onRefresh = () => void list.refresh();

  const doDelete = async () => {
    setDeleting(true);
    try {
      const res = await http.del<{ deleted?: number }>(entityUrl(entity), { primids: selection.map((r) => r[entity.key]) });
      const n = res?.deleted ?? selection.length;
      toast.success(countText(t, 'list.deleted', n, { single: '{{n}} {{table}} record deleted.', many: '{{n}} {{table}} records deleted.' }, { table: tableName }));
      setConfirmDelete(false);
      list.setSelection([]);
      await list.refresh();
    } catch (e) {
      // The client has shown the server's reason (e.g. 409: still referred to); keep the dialog closable.
      if (!(e instanceof HttpError)) throw e;
      setConfirmDelete(false);
    } finally {
      setDeleting(false);
    }
  };

  const doExport = async () => {
    setExporting(true);
    try {
      const { exportToExcel } = await import('./export-excel');
      await exportToExcel({ entity, columns: orderColumns(columns, visibleColIds), selection, params: list.params });
    } catch (e) {
      if (!(e instanceof HttpError)) toast.danger(e instanceof Error ? e.message : t('list.export_failed', { defaultValue: 'The export failed.' }));
    } finally {
      setExporting(false);
    }
  };

  const doToggle = async (field: string) => {
    const row = single();
    if (!row) return;
    setToggling(field);
    try {
      await http.put(entityUrl(entity, rowId(entity, row)), { [field]: !asBool(row[field]), row_ver: row.row_ver });
      await list.refresh();
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      // A 409 means someone changed the row meanwhile: show the current state so the user can retry.
      if (e.status === 409) await list.refresh();
    } finally {
      setToggling(null);
    }
  };

  const onRowOpen = (row: EntityRow) => {
    if (canView) go('view', rowId(entity, row));
    else if (canEdit) go('update', rowId(entity, row));
  };

  useHotkeys(
    [
      ['ctrl+E', () => canEdit && onEdit()],
      ['ctrl+U', () => canEdit && onEdit()],
      ['ctrl+R', onRefresh],
      ['alt+N', () => canCreate && go('create')],
      ['ctrl+D', () => canDelete && onDelete()],
      ['ctrl+Delete', () => canDelete && onDelete()],
      ['ctrl+H', () => setInfoOpen(true)],
    ],
    // Every shortcut has a modifier, so they may fire while the search box has the focus.
    [],
  );

  const gridHeight = compact ? 'calc(100dvh - 300px)' : 'calc(100dvh - 240px)';

  return (
    <Stack gap="xs" data-testid="entity-list">
      <Group justify="space-between" align="center" gap="xs" wrap="wrap">
        <Title order={4}>{pageLabel(t, page)}</Title>
        <TextInput
          size="xs"
          w={compact ? '100%' : 280}
          placeholder={
            searchable.length > 0
              ? t('grid.search_in', { defaultValue: 'Search {{fields}}', fields: searchable.join(', ') })
              : t('grid.quick_search', { defaultValue: 'Search' })
          }
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
          autoFocus={searchMode}
          data-testid="grid-search"
        />
      </Group>

      <Group gap={6} wrap="wrap" data-testid="grid-toolbar">
        {canCreate && <ToolbarButton compact={compact} label={t('btn.create', { defaultValue: 'Create' })} icon={<IconPlus size={16} />} onClick={() => go('create')} testId="btn-create" />}
        {canEdit && <ToolbarButton compact={compact} label={t('btn.edit', { defaultValue: 'Edit' })} icon={<IconPencil size={16} />} onClick={onEdit} testId="btn-edit" />}
        {canView && <ToolbarButton compact={compact} label={t('btn.view', { defaultValue: 'View' })} icon={<IconEye size={16} />} onClick={onView} testId="btn-view" />}
        {canClone && <ToolbarButton compact={compact} label={t('btn.clone', { defaultValue: 'Clone' })} icon={<IconCopy size={16} />} onClick={onClone} testId="btn-clone" />}
        {canDelete && <ToolbarButton compact={compact} color="red" label={t('btn.delete', { defaultValue: 'Delete' })} icon={<IconTrash size={16} />} onClick={onDelete} testId="btn-delete" />}
        {toggles.map((tg) => (
          <ToolbarButton
            key={tg.button}
            compact={compact}
            color="grape"
            label={toggleLabel(t, tg)}
            icon={<IconToggleRight size={16} />}
            onClick={() => void doToggle(tg.field)}
            loading={toggling === tg.field}
            testId={`btn-${tg.button}`}
          />
        ))}
        {canExport && (
          <ToolbarButton compact={compact} color="teal" label={t('btn.export', { defaultValue: 'Export' })} icon={<IconDownload size={16} />} onClick={() => void doExport()} loading={exporting} testId="btn-export" />
        )}
        {canImport && <ToolbarButton compact={compact} label={t('btn.import', { defaultValue: 'Import' })} icon={<IconUpload size={16} />} onClick={() => go('import')} testId="btn-import" />}
        {/* Refresh and info only read what the page already shows, so no permission button governs them. */}
        <ToolbarButton compact={compact} color="gray" label={t('btn.refresh', { defaultValue: 'Refresh' })} icon={<IconRefresh size={16} />} onClick={onRefresh} loading={list.fetching && !list.loading} testId="btn-refresh" />
        <ToolbarButton compact={compact} color="gray" label={t('btn.table_info', { defaultValue: 'Table Info' })} icon={<IconInfoCircle size={16} />} onClick={() => setInfoOpen(true)} testId="btn-info" />
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
          onRowOpen={onRowOpen}
          savedLayout={savedLayout}
          onVisibleColumnsChange={setVisibleColIds}
          userCode={userCode}
          height={gridHeight}
          paging={{ page: list.page, pageCount: list.pageCount, total: list.total, size: list.size, onPage: list.setPage, onSize: list.setSize }}
        />
      </Suspense>

      <ConfirmDeleteDialog
        opened={confirmDelete}
        count={selection.length}
        tableName={tableName}
        busy={deleting}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => void doDelete()}
      />
      <TableInfoDialog opened={infoOpen} onClose={() => setInfoOpen(false)} label={tableName} total={list.total} searchable={searchable} />
    </Stack>
  );
}
