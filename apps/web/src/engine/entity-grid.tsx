import type { AnyEntity } from '@campus/entities/define';
import { Box, Button, Checkbox, Group, Menu, Text } from '@mantine/core';
import { IconColumns3, IconDeviceFloppy, IconRestore } from '@tabler/icons-react';
import {
  CellStyleModule,
  ClientSideRowModelModule,
  ColumnApiModule,
  ColumnAutoSizeModule,
  CustomEditorModule,
  LocaleModule,
  ModuleRegistry,
  RowSelectionModule,
  ValidationModule,
  themeQuartz,
  type CellEditRequestEvent,
  type ColDef,
  type ColumnMovedEvent,
  type ColumnState,
  type ColumnResizedEvent,
  type GetRowIdParams,
  type GridApi,
  type GridReadyEvent,
  type RowDoubleClickedEvent,
  type RowSelectionOptions,
  type SelectionColumnDef,
  type SortChangedEvent,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HttpError } from '../lib/http-client';
import { toast } from '../lib/toast';
import { formatColumnCell } from './cell-format';
import { columnWidth, fitToRoom, MIN_COLUMN_WIDTH, type MeasureText, type SavedLayout } from './column-layout';
import type { EntityRow } from './entity-api';
import type { ColumnSpec } from './entity-columns';
import { gridLocaleText } from './grid-locale';
import { PagingBar, type PagingBarProps } from './paging-bar';
import { loadSavedLayout, saveLayout } from './table-settings-api';
import { InlineAmountEditor, type InlineAmountEditorParams } from './inline-amount-editor';
import { isInlineField } from './inline-edit';
import type { SortState } from './use-entity-list';

/*
 * Row model: the client-side row model, fed one server page at a time. The headless controller owns
 * paging, sort and search (they live in the URL and in the query key), so the grid never needs to ask for
 * rows itself, which is what the infinite row model is for. It also keeps selection and getSelectedRows
 * simple: exactly the rows on screen. Only the modules this adapter uses are registered (stack notes).
 */
ModuleRegistry.registerModules([
  ClientSideRowModelModule,
  RowSelectionModule,
  ColumnApiModule,
  ColumnAutoSizeModule,
  // The 'rightAligned' column type of money and number columns is a cellClass.
  CellStyleModule,
  // localeText: the grid's own texts in the user's language.
  LocaleModule,
  // The in-place amount editor (declared inlineEdit fields) is a React component of our own.
  CustomEditorModule,
  // Names the missing module in the console during development; left out of production bundles.
  ...(import.meta.env.DEV ? [ValidationModule] : []),
]);

// Column widths are measured in this font (textMeasurer): keep the two in step.
const FONT_SIZE = 13;
const HEADER_FONT_WEIGHT = 600;

const gridTheme = themeQuartz.withParams({
  fontFamily: 'inherit',
  fontSize: FONT_SIZE,
  headerFontSize: FONT_SIZE,
  headerFontWeight: HEADER_FONT_WEIGHT,
  wrapperBorderRadius: 4,
  cellHorizontalPadding: 8,
});

// Spec section 9: row height 25, header height 30, default and minimum column width 100.
const ROW_HEIGHT = 25;
const HEADER_HEIGHT = 30;
const COLUMN_WIDTH = MIN_COLUMN_WIDTH;

/** Rows arrive sorted by the server; returning 0 keeps that order when the header shows a sort. */
const keepServerOrder = (): number => 0;

/*
 * initialWidth and initialHide, not width and hide: new column definitions (a new translation, the page's
 * permissions arriving) would otherwise put every column back to 100 px and the default set, undoing the
 * sizing and whatever the user showed from the Columns menu.
 */
const defaultColDef: ColDef<EntityRow> = { initialWidth: COLUMN_WIDTH, minWidth: COLUMN_WIDTH, resizable: true, sortable: true };

/**
 * Text widths as the grid draws them, in the page's own font. A canvas measures without laying anything
 * out; where there is none (jsdom) an average letter width stands in.
 */
function textMeasurer(box: HTMLElement | null): MeasureText {
  const ctx = typeof OffscreenCanvas === 'undefined' ? null : new OffscreenCanvas(1, 1).getContext('2d');
  const family = box ? getComputedStyle(box).fontFamily || 'sans-serif' : 'sans-serif';
  const cache = new Map<string, number>();
  return (text, where) => {
    const key = `${where}\u0000${text}`;
    let width = cache.get(key);
    if (width === undefined) {
      if (ctx) {
        ctx.font = `${where === 'header' ? HEADER_FONT_WEIGHT : 400} ${FONT_SIZE}px ${family}`;
        width = ctx.measureText(text).width;
      } else {
        width = text.length * FONT_SIZE * 0.6;
      }
      cache.set(key, width);
    }
    return width;
  };
}

/**
 * Sizes every column, shown or not, to its heading and to the values on the page (columnWidth), so that
 * 'Admission No' or a child's name is never cut to 'Admissi…'. AG Grid's own auto-size only measures the
 * columns it has drawn, and leaves those scrolled out of view at 100 px. When the columns leave room on a
 * wide screen they stretch to fill it; when they do not (a phone), the grid scrolls sideways.
 */
function sizeColumns(
  api: GridApi<EntityRow>,
  columns: readonly ColumnSpec[],
  rows: readonly EntityRow[],
  format: (c: ColumnSpec, row: EntityRow) => string,
  box: HTMLElement | null,
): void {
  const measure = textMeasurer(box);
  const widths = new Map(columns.map((c) => [c.colId, columnWidth(c.kind, c.label, rows.map((r) => format(c, r)), measure)]));
  // The room beside a vertical scrollbar (given, not measured: the bar may only appear once more rows
  // arrive), so the last column's right-aligned numbers are never cut; pinned columns (the checkbox) keep
  // theirs. Shared out here rather than by the grid's sizeColumnsToFit, which, run while the grid settles,
  // was seen to level every column to one width.
  const displayed = api.getAllDisplayedColumns();
  const pinned = displayed.filter((c) => c.getPinned()).reduce((sum, c) => sum + c.getActualWidth(), 0);
  const kinds = new Map(columns.map((c) => [c.colId, c.kind]));
  const shown = displayed.flatMap((c) => {
    const colId = c.getColId();
    const width = widths.get(colId);
    const kind = kinds.get(colId);
    return !c.getPinned() && width !== undefined && kind !== undefined ? [{ colId, kind, width }] : [];
  });
  for (const [colId, width] of fitToRoom(shown, (box?.clientWidth ?? 0) - 22 - pinned)) widths.set(colId, width);
  api.applyColumnState({ state: [...widths].map(([colId, width]) => ({ colId, width })) });
}

/** Columns narrower than their heading and values need grow to it; wider ones are left as the user had them. */
function widenToFit(
  api: GridApi<EntityRow>,
  columns: readonly ColumnSpec[],
  rows: readonly EntityRow[],
  format: (c: ColumnSpec, row: EntityRow) => string,
  box: HTMLElement | null,
): void {
  const measure = textMeasurer(box);
  const state = api.getColumnState();
  const grow = columns.flatMap((c) => {
    const need = columnWidth(c.kind, c.label, rows.map((r) => format(c, r)), measure);
    const now = state.find((s) => s.colId === c.colId)?.width ?? 0;
    return now < need ? [{ colId: c.colId, width: need }] : [];
  });
  if (grow.length > 0) api.applyColumnState({ state: grow });
}

const selectionColumnDef: SelectionColumnDef = { width: 36, minWidth: 36, maxWidth: 36, resizable: false, pinned: 'left' };

export interface EntityGridProps {
  entity: AnyEntity;
  /** Columns labelled in the current language (translateColumns). */
  columns: ColumnSpec[];
  rows: EntityRow[];
  loading: boolean;
  sort: SortState | null;
  onSortChange: (sort: SortState | null) => void;
  onSelectionChange: (rows: EntityRow[]) => void;
  /** Double-click on a row: opens it (view or edit, as permitted). */
  onRowOpen?: (row: EntityRow) => void;
  /** The user's saved layout of this table, applied when the grid starts. */
  savedLayout: SavedLayout | null;
  /** Visible column ids in on-screen order, for the export. */
  onVisibleColumnsChange: (colIds: string[]) => void;
  /** Signed-in user's code: the owner of the saved layout. */
  userCode: number | null;
  /** Name the layout is saved under (Update State); the entity's name when not given. */
  layoutName?: string;
  paging: PagingBarProps;
  /** CSS height of the grid body. */
  height: string;
  /** Columns the user may edit in place (declared inlineEdit, page's 'edit' button); none by default. */
  inlineEditFields?: readonly string[];
  /**
   * A committed in-place edit, as the editor's text. The grid never changes its own copy (readOnlyEdit): the
   * caller judges the text, saves it and hands back the rows to show.
   */
  onInlineEdit?: (row: EntityRow, field: string, text: unknown) => void;
}

function sameSort(a: SortState | null, b: SortState | null): boolean {
  return a === b || (!!a && !!b && a.field === b.field && a.dir === b.dir);
}

function gridSort(api: GridApi<EntityRow>): SortState | null {
  const col = api.getColumnState().find((c) => c.sort === 'asc' || c.sort === 'desc');
  return col ? { field: col.colId, dir: col.sort === 'desc' ? 'desc' : 'asc' } : null;
}

function applySort(api: GridApi<EntityRow>, sort: SortState | null): void {
  if (sameSort(gridSort(api), sort)) return;
  api.applyColumnState({ state: sort ? [{ colId: sort.field, sort: sort.dir }] : [], defaultState: { sort: null } });
}

/**
 * AG Grid adapter: renders the controller's rows and reports sort, selection and column changes back.
 * It owns only what is AG Grid specific: column definitions and the saved column layout.
 */
export function EntityGrid(props: EntityGridProps) {
  const { entity, columns, rows, loading, sort, onSortChange, onSelectionChange, onRowOpen, savedLayout, onVisibleColumnsChange, userCode, onInlineEdit } = props;
  const inlineKey = (props.inlineEditFields ?? []).join(',');
  const inlineFields = useMemo(() => new Set(inlineKey === '' ? [] : inlineKey.split(',')), [inlineKey]);
  const apiRef = useRef<GridApi<EntityRow> | null>(null);
  const gridBoxRef = useRef<HTMLDivElement>(null);
  const sortRef = useRef(sort);
  sortRef.current = sort;
  // The rows on screen, for sizing the columns (the grid's own row walk needs a module of its own).
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const [layoutDirty, setLayoutDirty] = useState(false);
  const [busy, setBusy] = useState<'save' | 'reset' | null>(null);
  const [hiddenIds, setHiddenIds] = useState<ReadonlySet<string>>(() => new Set());
  const { t } = useTranslation();

  /*
   * AG Grid reads localeText only when it starts, so new texts (a language switch) start the grid again: it
   * is keyed by the texts themselves, not by t, whose identity may change while the texts do not. The
   * user's current column layout, saved or not, is carried over to the new grid.
   */
  const localeKey = JSON.stringify(gridLocaleText(t));
  const localeText = useMemo(() => JSON.parse(localeKey) as Record<string, string>, [localeKey]);
  const renderedLocale = useRef(localeKey);
  const carriedState = useRef<ColumnState[] | null>(null);
  if (renderedLocale.current !== localeKey) {
    // Read during render, before React unmounts the old grid for the new key: after that it is gone.
    renderedLocale.current = localeKey;
    const api = apiRef.current;
    if (api && !api.isDestroyed()) carriedState.current = api.getColumnState();
  }

  const columnDefs = useMemo<ColDef<EntityRow>[]>(
    () =>
      columns.map((c) => {
        const field = entity.fields[c.colId];
        const inline = inlineFields.has(c.colId) && isInlineField(field) ? field : null;
        return {
          colId: c.colId,
          field: c.valueField,
          headerName: c.label,
          initialHide: c.hidden,
          sortable: c.sortable,
          // No type inference: it would draw booleans as checkboxes, and the spec shows them as Yes/No.
          cellDataType: false,
          comparator: keepServerOrder,
          type: c.align === 'right' ? 'rightAligned' : undefined,
          // Same text as the view form and the export: option labels and Yes/No in the current language.
          valueFormatter: (p) => formatColumnCell(entity, c.colId, p.value, t),
          // Double click, Enter or F2 edit in place; Escape cancels (the grid's own keys).
          ...(inline
            ? { editable: true, cellEditor: InlineAmountEditor, cellEditorParams: { field: inline } satisfies InlineAmountEditorParams }
            : {}),
        };
      }),
    [columns, entity, t, inlineFields],
  );

  const onCellEditRequest = useCallback(
    (e: CellEditRequestEvent<EntityRow>) => {
      if (e.data && onInlineEdit) onInlineEdit(e.data, e.column.getColId(), e.newValue);
    },
    [onInlineEdit],
  );

  const onRowDoubleClicked = useCallback(
    (e: RowDoubleClickedEvent<EntityRow>) => {
      // A double click on an in-place editable cell edits that cell; it must not also open the row.
      const target = e.event?.target;
      const cell = target instanceof Element ? target.closest('.ag-cell') : null;
      if (cell && inlineFields.has(cell.getAttribute('col-id') ?? '')) return;
      if (e.data && onRowOpen) onRowOpen(e.data);
    },
    [inlineFields, onRowOpen],
  );

  const rowSelection = useMemo<RowSelectionOptions<EntityRow>>(
    () =>
      entity.singleSelect
        ? { mode: 'singleRow', checkboxes: true, enableClickSelection: true }
        : { mode: 'multiRow', checkboxes: true, headerCheckbox: true, enableClickSelection: true },
    [entity.singleSelect],
  );

  const getRowId = useCallback((p: GetRowIdParams<EntityRow>) => String(p.data[entity.key]), [entity.key]);

  const reportColumns = useCallback(
    (api: GridApi<EntityRow>) => {
      const ids = api.getAllDisplayedColumns().map((c) => c.getColId());
      onVisibleColumnsChange(ids);
      setHiddenIds(new Set(api.getColumns()?.filter((c) => !c.isVisible()).map((c) => c.getColId()) ?? []));
    },
    [onVisibleColumnsChange],
  );

  /** The text a cell shows: what the columns are measured by. */
  const cellText = useCallback((c: ColumnSpec, row: EntityRow) => formatColumnCell(entity, c.colId, row[c.valueField], t), [entity, t]);

  // A saved layout (or the one carried over a language switch) carries its own widths, which win.
  const layoutApplied = useRef(false);
  /*
   * The rows reach the grid only once it is ready and its columns are sized (onGridReady, from the rows'
   * text, measured on a canvas). Given at once, they were drawn at 100 px a column and then every cell was
   * moved to its new width, each row container measuring the viewport after the last one's change: a dozen
   * forced layouts of the whole body, over a second of a throttled CPU before the first row showed. (The
   * rows are at hand when the grid starts when the visit fetched them beside the code: list-route-prefetch.)
   */
  const [gridStarted, setGridStarted] = useState(false);

  const onGridReady = useCallback(
    (e: GridReadyEvent<EntityRow>) => {
      apiRef.current = e.api;
      const carried = carriedState.current;
      carriedState.current = null;
      const layout = carried ?? savedLayout;
      layoutApplied.current = !!layout;
      if (layout) e.api.applyColumnState({ state: layout, applyOrder: true });
      // Headings whole from the start; the values are measured once the first rows are drawn.
      else sizeColumns(e.api, columns, rowsRef.current, cellText, gridBoxRef.current);
      // After a language switch the layout carried over keeps its widths, but a column whose new heading or
      // values (Tamil words and month names run longer) no longer fit grows to them.
      if (carried) widenToFit(e.api, columns, rowsRef.current, cellText, gridBoxRef.current);
      applySort(e.api, sortRef.current);
      reportColumns(e.api);
      // A restarted grid starts with nothing selected; the toolbar must not act on the old selection.
      if (carried) onSelectionChange([]);
      setGridStarted(true);
    },
    [savedLayout, reportColumns, onSelectionChange, columns, cellText],
  );

  // The controller's sort is the truth (it is in the URL, e.g. after back/forward); mirror it into the header.
  useEffect(() => {
    const api = apiRef.current;
    if (api && !api.isDestroyed()) applySort(api, sort);
  }, [sort]);

  const onSortChanged = useCallback(
    (e: SortChangedEvent<EntityRow>) => {
      const next = gridSort(e.api);
      if (!sameSort(next, sortRef.current)) onSortChange(next);
    },
    [onSortChange],
  );

  const onColumnMoved = useCallback((e: ColumnMovedEvent<EntityRow>) => {
    if (e.finished && (e.source === 'uiColumnMoved' || e.source === 'uiColumnDragged')) setLayoutDirty(true);
  }, []);

  const onColumnResized = useCallback((e: ColumnResizedEvent<EntityRow>) => {
    if (e.finished && e.source === 'uiColumnResized') setLayoutDirty(true);
  }, []);

  const toggleColumn = (colId: string, visible: boolean) => {
    const api = apiRef.current;
    if (!api) return;
    api.setColumnsVisible([colId], visible);
    setLayoutDirty(true);
  };

  const updateState = async () => {
    const api = apiRef.current;
    if (!api || userCode === null) return;
    setBusy('save');
    try {
      await saveLayout(userCode, props.layoutName ?? entity.name, api.getColumnState());
      setLayoutDirty(false);
      toast.success(t('grid.layout_saved', { defaultValue: 'Column layout saved.' }));
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
    } finally {
      setBusy(null);
    }
  };

  const resetState = async () => {
    const api = apiRef.current;
    if (!api || userCode === null) return;
    setBusy('reset');
    try {
      const layout = await loadSavedLayout(userCode, props.layoutName ?? entity.name);
      if (layout) {
        api.resetColumnState();
        api.applyColumnState({ state: layout, applyOrder: true });
      } else {
        api.resetColumnState();
        sizeColumns(api, columns, rowsRef.current, cellText, gridBoxRef.current);
      }
      applySort(api, sortRef.current);
      setLayoutDirty(false);
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
    } finally {
      setBusy(null);
    }
  };

  return (
    <Box>
      <Box ref={gridBoxRef} style={{ height: props.height, minHeight: 260 }} data-testid="entity-grid">
        <AgGridReact<EntityRow>
          key={localeKey}
          theme={gridTheme}
          localeText={localeText}
          rowData={gridStarted || rows.length === 0 ? rows : undefined}
          columnDefs={columnDefs}
          defaultColDef={defaultColDef}
          rowHeight={ROW_HEIGHT}
          headerHeight={HEADER_HEIGHT}
          rowSelection={rowSelection}
          selectionColumnDef={selectionColumnDef}
          getRowId={getRowId}
          // Held-back rows are on their way: the loading overlay, not 'No Rows To Show', for that moment.
          loading={loading || (!gridStarted && rows.length > 0)}
          suppressMultiSort
          // A saved layout carries its own widths; otherwise each column takes what its header and the
          // first page need (never under 100), and the columns share out any room that is left.
          onFirstDataRendered={(e) => {
            if (!layoutApplied.current) sizeColumns(e.api, columns, rowsRef.current, cellText, gridBoxRef.current);
          }}
          onGridReady={onGridReady}
          onSortChanged={onSortChanged}
          onSelectionChanged={(e) => onSelectionChange(e.api.getSelectedRows())}
          // A refresh keeps the selection (same row ids) but brings new data, e.g. a toggled flag and its
          // new row_ver; report it so the next action does not act on the old copy.
          onRowDataUpdated={(e) => onSelectionChange(e.api.getSelectedRows())}
          onRowDoubleClicked={onRowDoubleClicked}
          // Rows are the server's: an edit is reported (onCellEditRequest) and saved by the caller, whose
          // answer comes back as new rows. The grid's copy never holds a value the server has not accepted.
          readOnlyEdit
          onCellEditRequest={onCellEditRequest}
          // Clicking outside the grid (the toolbar, the search box) ends the edit like Enter does.
          stopEditingWhenCellsLoseFocus
          onColumnMoved={onColumnMoved}
          onColumnResized={onColumnResized}
          onDisplayedColumnsChanged={(e) => reportColumns(e.api)}
        />
      </Box>
      <Group justify="space-between" gap="xs" mt={6} wrap="wrap">
        <Group gap="xs" wrap="wrap">
          <Menu closeOnItemClick={false} position="top-start" withinPortal shadow="md">
            <Menu.Target>
              <Button size="compact-sm" variant="default" leftSection={<IconColumns3 size={14} />}>
                {t('grid.columns', { defaultValue: 'Columns' })}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Label>{t('grid.show_columns', { defaultValue: 'Show columns' })}</Menu.Label>
              {columns.map((c) => (
                <Menu.Item key={c.colId} onClick={() => toggleColumn(c.colId, hiddenIds.has(c.colId))}>
                  <Checkbox size="xs" readOnly checked={!hiddenIds.has(c.colId)} label={c.label} styles={{ input: { cursor: 'pointer' } }} />
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
          {layoutDirty && (
            <>
              <Text size="xs" c="dimmed">
                {t('grid.layout_changed', { defaultValue: 'Column layout changed' })}
              </Text>
              <Button
                size="compact-sm"
                leftSection={<IconDeviceFloppy size={14} />}
                loading={busy === 'save'}
                disabled={userCode === null}
                onClick={() => void updateState()}
              >
                {t('btn.update_state', { defaultValue: 'Update State' })}
              </Button>
              <Button
                size="compact-sm"
                variant="default"
                leftSection={<IconRestore size={14} />}
                loading={busy === 'reset'}
                disabled={userCode === null}
                onClick={() => void resetState()}
              >
                {t('btn.reset_state', { defaultValue: 'Reset State' })}
              </Button>
            </>
          )}
        </Group>
        <PagingBar {...props.paging} />
      </Group>
    </Box>
  );
}
