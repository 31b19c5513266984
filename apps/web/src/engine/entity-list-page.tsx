import { hasRoute, type AnyEntity, type DocumentButton, type RelatedList, type WorkflowButton } from '@campus/entities/define';
import type { PageDef } from '@campus/entities/pages';
import { ActionIcon, Badge, Button, Group, Skeleton, Stack, TextInput, Title, Tooltip } from '@mantine/core';
import { useHotkeys, useMediaQuery } from '@mantine/hooks';
import {
  IconCopy,
  IconDownload,
  IconEye,
  IconBolt,
  IconInfoCircle,
  IconListDetails,
  IconPencil,
  IconPlayerPlay,
  IconPlus,
  IconPrinter,
  IconRefresh,
  IconSearch,
  IconToggleRight,
  IconTrash,
  IconUpload,
  IconX,
} from '@tabler/icons-react';
import { lazy, Suspense, useCallback, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { usePagePermission } from '../app/page-permission-context';
import { HttpError, http } from '../lib/http-client';
import { printPdf } from '../lib/print-pdf';
import { useSession } from '../lib/session-store';
import { toast } from '../lib/toast';
import { ActionDialog } from './action-dialog';
import { documentUrl, permittedDocuments } from './document-buttons';
import { layoutFor } from './column-layout';
import { entityUrl, rowId, type EntityRow } from './entity-api';
import { orderColumns, translateColumns } from './entity-columns';
import { entityLabel, fieldLabel, optionLabel, pageLabel, toggleLabel, viewButtonLabel } from './entity-labels';
import { modePath } from './entity-mode';
import { actionOptions, fieldButtonBody, flipped, oneSelected, permittedFieldButtons, type GridFieldButton } from './field-buttons';
import { inlineCommit, inlineEditFields, isInlineField } from './inline-edit';
import { ConfirmDeleteDialog, TableInfoDialog } from './list-dialogs';
import { countText, selectionMessage } from './list-messages';
import { MOBILE_QUERY } from './responsive';
import { relatedListPath, urlFilters } from './related-lists';
import { recentLayout } from './table-settings-api';
import { useEntityList } from './use-entity-list';
import type { WorkflowRefusal } from './workflow-button-dialog';
import { permittedWorkflowButtons, workflowButtonBody, workflowButtonEnabled, workflowButtonTexts, workflowButtonUrl, workflowOpensPath } from './workflow-buttons';

// AG Grid is most of the list page's weight: it loads with the first grid, not with the shell or login.
const EntityGrid = lazy(() => import('./entity-grid').then((m) => ({ default: m.EntityGrid })));
// A workflow button's dialog holds form fields (dates, selects): they load when a button is pressed.
const WorkflowButtonDialog = lazy(() => import('./workflow-button-dialog').then((m) => ({ default: m.WorkflowButtonDialog })));

export interface EntityListPageProps {
  entity: AnyEntity;
  page: PageDef;
  /** table/search mode: the search box takes the focus. */
  searchMode: boolean;
  /** A workflow screen replaces the generic form, so create/edit work even without the generic routes. */
  hasFormOverride: boolean;
  /** The workflow screen edits rows too (false for a create-only one); defaults to hasFormOverride. */
  editOverride?: boolean;
}

interface ToolbarButtonProps {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  compact: boolean;
  loading?: boolean;
  color?: string;
  disabled?: boolean;
  testId: string;
}

/** Labelled on desktop; icon-only with a tooltip on phones so the toolbar fits one or two lines. */
function ToolbarButton({ label, icon, onClick, compact, loading, color, disabled, testId }: ToolbarButtonProps) {
  if (compact) {
    return (
      <Tooltip label={label} withArrow>
        <ActionIcon variant="light" size="lg" color={color} aria-label={label} onClick={onClick} loading={loading} disabled={disabled} data-testid={testId}>
          {icon}
        </ActionIcon>
      </Tooltip>
    );
  }
  return (
    <Button size="xs" variant="light" color={color} leftSection={icon} onClick={onClick} loading={loading} disabled={disabled} data-testid={testId}>
      {label}
    </Button>
  );
}

export function EntityListPage({ entity, page, searchMode, hasFormOverride, editOverride = hasFormOverride }: EntityListPageProps) {
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
  // The field a toggle or action is saving, and the action whose dialog is open (with its row).
  const [savingField, setSavingField] = useState<string | null>(null);
  const [action, setAction] = useState<{ button: GridFieldButton; row: EntityRow } | null>(null);
  // The workflow button whose confirmation is open (with its row), and whether its route is running.
  // Its idempotency key is made per opening and kept while the same attempt is retried (a lost answer).
  const [flow, setFlow] = useState<{ button: WorkflowButton; row: EntityRow; key: string; refusal: WorkflowRefusal | null } | null>(null);
  const [flowBusy, setFlowBusy] = useState(false);

  const { can } = permission;
  const canCreate = can('create') && (hasFormOverride || hasRoute(entity, 'create'));
  const canEdit = can('edit') && (editOverride || hasRoute(entity, 'update'));
  const canView = can('view') && hasRoute(entity, 'get');
  // A clone is saved as a create (POST), which the route and the server allow only with the create button.
  const canClone = can('clone') && can('create') && hasRoute(entity, 'create') && hasRoute(entity, 'get');
  const canDelete = can('delete') && hasRoute(entity, 'delete');
  const canExport = can('export');
  const canImport = can('import') && hasRoute(entity, 'import');
  const fieldButtons = permittedFieldButtons(entity, can);
  const inlineFields = inlineEditFields(entity, can('edit'));
  const flowButtons = permittedWorkflowButtons(entity, can);
  const documentButtons = permittedDocuments(entity, can);
  // The document being fetched for printing (its button), so a second click does not print it twice.
  const [printing, setPrinting] = useState<string | null>(null);

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
    const one = oneSelected(t, tableName, selection);
    if ('row' in one) return one.row;
    toast.warning(one.problem);
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

  /**
   * Saves a toggle's or an action's one field. True when nothing is left to do with this row: saved, or
   * stale (409: someone changed it meanwhile, so the grid is refreshed and the user picks it again).
   */
  const saveField = async (row: EntityRow, field: string, value: unknown): Promise<boolean> => {
    setSavingField(field);
    try {
      await http.put(entityUrl(entity, rowId(entity, row)), fieldButtonBody(row, field, value));
      await list.refresh();
      return true;
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      if (e.status !== 409) return false;
      await list.refresh();
      return true;
    } finally {
      setSavingField(null);
    }
  };

  const onFieldButton = (b: GridFieldButton) => {
    const row = single();
    if (!row) return;
    // A toggle flips at once; an action first asks which status the row moves to.
    if (b.kind === 'toggle') void saveField(row, b.field, flipped(row, b.field));
    else setAction({ button: b, row });
  };

  const doAction = async (value: string) => {
    if (!action) return;
    // Other errors (the client has shown them) keep the dialog open with the user's choice.
    if (await saveField(action.row, action.button.field, value)) setAction(null);
  };

  /** A related list (a wallet's statement): that entity's page, filtered to the one selected row. */
  const onRelated = (r: RelatedList) => {
    const row = single();
    const path = row ? relatedListPath(entity, r, row) : null;
    if (path) navigate(path);
  };

  const onWorkflowButton = (b: WorkflowButton) => {
    const row = single();
    if (row) setFlow({ button: b, row, key: crypto.randomUUID(), refusal: null });
  };

  /** The selected row's PDF, printed without the app around it (lib/print-pdf); one row, as for Edit. */
  const onDocument = (d: DocumentButton) => {
    const row = single();
    if (!row || printing) return;
    setPrinting(d.button);
    printPdf(documentUrl(entity, d, row))
      .catch((e: unknown) => {
        // The client has shown the server's reason; anything else is a real fault.
        if (!(e instanceof HttpError)) throw e;
      })
      .finally(() => setPrinting(null));
  };

  const doWorkflow = async (reason: string, inputs: Record<string, unknown>) => {
    if (!flow) return;
    const { button, row, key } = flow;
    setFlowBusy(true);
    try {
      // The route's own sentence is the toast, not the generic 'Created Successfully' of a POST.
      const answer = await http.post<unknown>(workflowButtonUrl(entity, button, row), workflowButtonBody(entity, button, row, reason, inputs, key), {
        headers: { dontShowMsg: '1' },
      });
      toast.success(workflowButtonTexts(t, entity, button, row).done);
      setFlow(null);
      const opens = workflowOpensPath(button, answer);
      if (opens) navigate(opens);
      else await list.refresh();
    } catch (e) {
      // The client has toasted the server's reason (already cancelled, more than the balance...); the dialog
      // keeps it beside the inputs so they can be corrected, and the rows are read again as they may have moved
      // on. A refusal wrote nothing, so the next try is a new attempt with a new key; after a lost answer (no
      // status, or the server failing) the same key lets the route answer the first try instead of writing twice.
      if (!(e instanceof HttpError)) throw e;
      if (e.cancelled) return;
      const refused = e.status >= 400 && e.status < 500;
      const fields = Object.fromEntries((e.details ?? []).map((d) => [d.field, d.message]));
      setFlow((f) => f && { ...f, key: refused ? crypto.randomUUID() : f.key, refusal: { message: e.message, fields } });
      await list.refresh();
    } finally {
      setFlowBusy(false);
    }
  };

  /**
   * A committed in-place edit (declared inlineEdit). Not a valid amount: ignored, the old value stays (spec
   * section 5) and the user is told why. Otherwise the one field is PUT with row_ver at once; the cell shows
   * the typed value meanwhile and then the server's answer (its new row_ver with it), or the old value again
   * when the server refuses. A stale row (409) reloads the list, since the row on screen is not the stored one.
   */
  const onInlineEdit = async (row: EntityRow, field: string, text: unknown) => {
    const f = entity.fields[field];
    if (!isInlineField(f)) return;
    const commit = inlineCommit(f, text, row[field]);
    if (commit.kind === 'unchanged') return;
    // The field rule's own sentence, as the form and the server word it (declared English labels).
    if (commit.kind === 'invalid') {
      toast.warning(commit.problem);
      return;
    }
    list.replaceRow({ ...row, [field]: commit.value });
    try {
      const saved = await http.put<EntityRow>(entityUrl(entity, rowId(entity, row)), fieldButtonBody(row, field, commit.value));
      // The answer is the whole stored row; joined display columns it may lack are kept from the list's copy.
      list.replaceRow({ ...row, ...saved });
    } catch (e) {
      list.replaceRow(row);
      if (!(e instanceof HttpError)) throw e;
      // The client has toasted the server's sentence (409: changed by someone else meanwhile); the reload then
      // shows what is stored now, so the next edit starts from it.
      if (e.status === 409) await list.refresh();
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

  // The URL's filters (a wallet's statement opened from the wallet page), each shown and removable.
  const [searchParams, setSearchParams] = useSearchParams();
  const shownFilters = urlFilters(entity, searchParams);
  const clearFilter = (name: string) =>
    setSearchParams((prev) => {
      const next = new URLSearchParams(prev);
      next.delete(`f_${name}`);
      next.delete('page');
      return next;
    });

  // A notification's filter (opened from the bell): shown by the rule's name, removable like the others.
  const ruleName = searchParams.get('rule') ? searchParams.get('rule_nm') || t('notification.filter', { defaultValue: 'Notification filter' }) : null;
  const clearRule = () =>
    setSearchParams((prev) => {
      const next = new URLSearchParams(prev);
      next.delete('rule');
      next.delete('rule_nm');
      next.delete('page');
      return next;
    });

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

      {(Object.keys(shownFilters).length > 0 || ruleName) && (
        <Group gap={6} wrap="wrap" data-testid="grid-filters">
          {ruleName && (
            <Badge
              variant="light"
              color="orange"
              size="lg"
              tt="none"
              data-testid="grid-rule-filter"
              rightSection={
                <ActionIcon size="xs" variant="transparent" aria-label={t('grid.clear_filter', { defaultValue: 'Show all' })} onClick={clearRule}>
                  <IconX size={12} />
                </ActionIcon>
              }
            >
              {ruleName}
            </Badge>
          )}
          {Object.entries(shownFilters).map(([name, value]) => (
            <Badge
              key={name}
              variant="light"
              size="lg"
              rightSection={
                <ActionIcon size="xs" variant="transparent" aria-label={t('grid.clear_filter', { defaultValue: 'Show all' })} onClick={() => clearFilter(name)}>
                  <IconX size={12} />
                </ActionIcon>
              }
            >
              {fieldLabel(t, entity, name)}: {value}
            </Badge>
          ))}
        </Group>
      )}
      <Group gap={6} wrap="wrap" data-testid="grid-toolbar">
        {canCreate && <ToolbarButton compact={compact} label={t('btn.create', { defaultValue: 'Create' })} icon={<IconPlus size={16} />} onClick={() => go('create')} testId="btn-create" />}
        {canEdit && <ToolbarButton compact={compact} label={t('btn.edit', { defaultValue: 'Edit' })} icon={<IconPencil size={16} />} onClick={onEdit} testId="btn-edit" />}
        {canView && <ToolbarButton compact={compact} label={viewButtonLabel(t, page)} icon={<IconEye size={16} />} onClick={onView} testId="btn-view" />}
        {canClone && <ToolbarButton compact={compact} label={t('btn.clone', { defaultValue: 'Clone' })} icon={<IconCopy size={16} />} onClick={onClone} testId="btn-clone" />}
        {canDelete && <ToolbarButton compact={compact} color="red" label={t('btn.delete', { defaultValue: 'Delete' })} icon={<IconTrash size={16} />} onClick={onDelete} testId="btn-delete" />}
        {fieldButtons.map((b) => (
          <ToolbarButton
            key={b.button}
            compact={compact}
            color="grape"
            label={toggleLabel(t, b)}
            icon={b.kind === 'toggle' ? <IconToggleRight size={16} /> : <IconPlayerPlay size={16} />}
            onClick={() => onFieldButton(b)}
            loading={savingField === b.field}
            testId={`btn-${b.button}`}
          />
        ))}
        {flowButtons.map((b) => (
          <ToolbarButton
            key={b.button}
            compact={compact}
            color="orange"
            label={workflowButtonTexts(t, entity, b, null).label}
            icon={<IconBolt size={16} />}
            onClick={() => onWorkflowButton(b)}
            loading={flowBusy && flow?.button.button === b.button}
            disabled={!workflowButtonEnabled(b, selection)}
            testId={`btn-${b.button}`}
          />
        ))}
        {(entity.related ?? []).map((r) => (
          <ToolbarButton
            key={`related-${r.entity}`}
            compact={compact}
            color="teal"
            label={t(`related.${entity.name}.${r.entity}`, { defaultValue: r.label })}
            icon={<IconListDetails size={16} />}
            onClick={() => onRelated(r)}
            testId={`btn-related-${r.entity}`}
          />
        ))}
        {documentButtons.map((d) => (
          <ToolbarButton
            key={d.button}
            compact={compact}
            color="indigo"
            label={t(`btn.${d.button}`, { defaultValue: d.label })}
            icon={<IconPrinter size={16} />}
            onClick={() => onDocument(d)}
            loading={printing === d.button}
            testId={`btn-${d.button}`}
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
          inlineEditFields={inlineFields}
          onInlineEdit={(row, field, text) => void onInlineEdit(row, field, text)}
          paging={{ page: list.page, pageCount: list.pageCount, total: list.total, totalExact: list.totalExact, size: list.size, onPage: list.setPage, onSize: list.setSize }}
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
      {action && (
        <ActionDialog
          opened
          title={toggleLabel(t, action.button)}
          fieldLabel={fieldLabel(t, entity, action.button.field)}
          options={actionOptions(entity, action.button.field)}
          labelOf={(v) => optionLabel(t, entity, action.button.field, v)}
          current={action.row[action.button.field] == null ? null : String(action.row[action.button.field])}
          busy={savingField === action.button.field}
          onCancel={() => setAction(null)}
          onConfirm={(v) => void doAction(v)}
        />
      )}
      {flow && (
        <Suspense fallback={null}>
          <WorkflowButtonDialog
            opened
            entity={entity}
            button={flow.button}
            row={flow.row}
            busy={flowBusy}
            refusal={flow.refusal}
            onCancel={() => setFlow(null)}
            onConfirm={(reason, inputs) => void doWorkflow(reason, inputs)}
          />
        </Suspense>
      )}
      <TableInfoDialog opened={infoOpen} onClose={() => setInfoOpen(false)} label={tableName} total={list.total} totalExact={list.totalExact} searchable={searchable} />
    </Stack>
  );
}
