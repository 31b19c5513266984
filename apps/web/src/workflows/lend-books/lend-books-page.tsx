import { ActionIcon, Alert, Badge, Button, Group, NumberInput, Paper, SegmentedControl, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import '@mantine/dates/styles.css';
import { DatePickerInput } from '@mantine/dates';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { IconBarcode, IconBookDownload, IconBookUpload, IconCalendar, IconSearch, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useRef, useState, type JSX, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { usePagePermission } from '../../app/page-permission-context';
import { MOBILE_QUERY } from '../../engine/responsive';
import { listQueryKey } from '../../engine/use-entity-list';
import { DATE_FORMAT, formatDate } from '../../lib/format';
import { HttpError, http } from '../../lib/http-client';
import { toast } from '../../lib/toast';
import { WorkflowHeader } from '../workflow-screen/workflow-header';
import {
  addToCart,
  cartCopies,
  deskBody,
  overMax,
  removeLine,
  scannedCode,
  setQty,
  type BookHit,
  type CartLine,
  type DeskMode,
  type HolderBooks,
  type HolderHit,
  type HolderType,
} from './lend-model';

/** The lists an issue or a return changes: read again when the user goes back to them. */
const changedLists = ['book_checkout', 'book_checkin', 'book_checkinout_summary', 'staff_book_stock'] as const;
const NO_TOAST = { dontShowMsg: '1' };

/**
 * The library desk (Book Issue > New, Book Return > New): choose the holder, see what they have out, scan
 * barcodes (a scanner types the code and Enter) or search titles, then Issue or Return in one go.
 */
function LendBooksDesk({ mode }: { mode: DeskMode }): JSX.Element {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { can } = usePagePermission();
  const compact = useMediaQuery(MOBILE_QUERY, false, { getInitialValueInEffect: false });
  const issue = mode === 'issue';
  const page = issue ? 'book_checkout' : 'book_checkin';
  const title = issue ? t('page.library.book_checkout', { defaultValue: 'Book Issue' }) : t('page.library.book_checkin', { defaultValue: 'Book Return' });

  const [typ, setTyp] = useState<HolderType>('Student');
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search, 250);
  const [holderCd, setHolderCd] = useState<number | null>(null);
  const [bookSearch, setBookSearch] = useState('');
  const [bq] = useDebouncedValue(bookSearch, 250);
  const [barcode, setBarcode] = useState('');
  const [scanError, setScanError] = useState<string | null>(null);
  const [cart, setCart] = useState<CartLine[]>([]);
  const [due, setDue] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const barcodeRef = useRef<HTMLInputElement>(null);
  // One key per attempt: a double click or a retry after a lost answer gives the first issue or return back.
  const attempt = useRef<string>(crypto.randomUUID());

  const hits = useQuery({
    queryKey: ['lend-books', 'holders', typ, q],
    queryFn: ({ signal }) => http.get<HolderHit[]>('/api/bookcheckout/holders', { signal, query: { usr_typ: typ, q } }),
  });
  const stockKey = ['lend-books', 'holder', typ, holderCd] as const;
  const stock = useQuery({
    queryKey: stockKey,
    enabled: holderCd !== null,
    staleTime: 0,
    queryFn: ({ signal }) => http.get<HolderBooks>('/api/bookcheckinoutsummary/holder', { signal, query: { usr_typ: typ, usr_cd: holderCd ?? '' } }),
  });
  const books = useQuery({
    queryKey: ['lend-books', 'books', bq],
    enabled: holderCd !== null && bq.trim().length > 0,
    queryFn: ({ signal }) => http.get<BookHit[]>('/api/bookcheckout/books', { signal, query: { q: bq } }),
  });

  const held = stock.data?.books ?? [];
  const dueShown = due ?? stock.data?.due_default ?? null;

  const resetDesk = () => {
    setCart([]);
    setDue(null);
    setBarcode('');
    setScanError(null);
    attempt.current = crypto.randomUUID();
  };
  const pickHolder = (v: string | null) => {
    setHolderCd(v ? Number(v) : null);
    resetDesk();
  };
  const pickType = (v: string) => {
    setTyp(v as HolderType);
    setSearch('');
    pickHolder(null);
  };

  /** A book found by barcode or search goes on the desk; a return takes only what the holder has out. */
  const addBook = (b: Pick<BookHit, 'bk_cd' | 'bk_nm' | 'bk_barcd' | 'available'>): boolean => {
    if (issue) {
      setCart((c) => addToCart(c, { bk_cd: b.bk_cd, bk_nm: b.bk_nm, bk_barcd: b.bk_barcd, max: b.available }));
      return true;
    }
    const mine = held.find((h) => h.bk_cd === b.bk_cd);
    if (!mine) {
      setScanError(t('lend.not_held', { defaultValue: "{{name}} has no copy of '{{book}}' out.", name: stock.data?.holder.name ?? '', book: b.bk_nm }));
      return false;
    }
    setCart((c) => addToCart(c, { bk_cd: b.bk_cd, bk_nm: b.bk_nm, bk_barcd: b.bk_barcd, max: mine.qty }));
    return true;
  };

  const scan = async () => {
    const code = scannedCode(barcode);
    if (!code) return;
    setScanError(null);
    try {
      const [b] = await http.get<BookHit[]>('/api/bookcheckout/books', { query: { barcode: code }, silent: true });
      if (b) addBook(b);
      else setScanError(t('lend.unknown_barcode', { defaultValue: "No book has the barcode '{{code}}'.", code }));
    } catch (e) {
      if (!(e instanceof HttpError) || e.aborted) return;
      setScanError(e.message);
    }
    // Ready for the next scan: the field empties and keeps the focus.
    setBarcode('');
    barcodeRef.current?.focus();
  };
  const onBarcodeKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    void scan();
  };

  const submit = async () => {
    if (saving || holderCd === null || !stock.data) return;
    if (cart.length === 0) return toast.warning(t('lend.nothing', { defaultValue: 'Scan or pick a book first.' }));
    const over = overMax(cart)[0];
    if (over) {
      return toast.warning(
        issue
          ? t('lend.over_shelf', { defaultValue: "Only {{n}} of '{{book}}' on the shelf.", n: over.max, book: over.bk_nm })
          : t('lend.over_held', { defaultValue: "{{name}} holds {{n}} of '{{book}}'.", n: over.max, book: over.bk_nm, name: stock.data.holder.name }),
      );
    }
    setSaving(true);
    try {
      const body = deskBody(mode, stock.data.holder, cart, due, attempt.current);
      const res = await http.post<{ stock: HolderBooks }>(issue ? '/api/bookcheckout/issue' : '/api/bookcheckin/return', body, { headers: NO_TOAST });
      const n = cartCopies(cart);
      toast.success(
        issue
          ? t('lend.issued', { defaultValue: '{{n}} book(s) issued to {{name}}.', n, name: stock.data.holder.name })
          : t('lend.returned', { defaultValue: '{{n}} book(s) returned by {{name}}.', n, name: stock.data.holder.name }),
      );
      queryClient.setQueryData(stockKey, res.stock);
      for (const name of changedLists) void queryClient.invalidateQueries({ queryKey: listQueryKey(name) });
      resetDesk();
      barcodeRef.current?.focus();
    } catch (e) {
      // The client has shown the server's sentence; a refused issue or return gets a new key for the next try.
      if (!(e instanceof HttpError)) throw e;
      if (e.status >= 400 && e.status < 500) attempt.current = crypto.randomUUID();
      void stock.refetch();
    } finally {
      setSaving(false);
    }
  };

  const dueCell = (d: string | null, late: number) =>
    d ? (
      <Text size="sm" c={late > 0 ? 'red' : undefined} fw={late > 0 ? 700 : undefined}>
        {formatDate(d)}
        {late > 0 && (
          <Badge ml={6} color="red" size="sm" variant="filled">
            {t('lend.overdue_days', { defaultValue: 'Overdue {{n}} days', n: late })}
          </Badge>
        )}
      </Text>
    ) : (
      '-'
    );

  return (
    <Stack gap="sm" data-testid="lend-desk">
      <WorkflowHeader title={title} page={t('lend.desk', { defaultValue: 'Library desk' })} backTo={`/sms/library/${page}/table`} />
      <Group align="flex-end" wrap="wrap" gap="xs">
        <SegmentedControl
          data={[
            { value: 'Student', label: t('option.book_checkout.bk_chk_usr_typ.Student', { defaultValue: 'Student' }) },
            { value: 'Employee', label: t('option.book_checkout.bk_chk_usr_typ.Employee', { defaultValue: 'Employee' }) },
          ]}
          value={typ}
          onChange={pickType}
          data-testid="lend-type"
        />
        <Select
          label={typ === 'Student' ? t('lend.student', { defaultValue: 'Student' }) : t('lend.employee', { defaultValue: 'Employee' })}
          placeholder={t('lend.search_holder', { defaultValue: 'Name or number' })}
          searchable
          clearable
          autoFocus
          searchValue={search}
          onSearchChange={setSearch}
          filter={({ options }) => options}
          data={(hits.data ?? []).map((h) => ({ value: String(h.usr_cd), label: h.detail ? `${h.name} - ${h.detail}` : h.name }))}
          value={holderCd === null ? null : String(holderCd)}
          onChange={pickHolder}
          nothingFoundMessage={t('grid.no_rows', { defaultValue: 'No Rows To Show' })}
          style={{ flex: 1, minWidth: compact ? '100%' : 280 }}
          data-testid="lend-holder"
        />
      </Group>

      {stock.data && (
        <Paper withBorder p="sm" radius="md" data-testid="lend-held">
          <Group justify="space-between" mb={6}>
            <Title order={2} size="h5">
              {t('lend.held_now', { defaultValue: 'Books held now' })}
            </Title>
            <Text size="sm" c={stock.data.held >= stock.data.limit ? 'red' : 'dimmed'} data-testid="lend-held-count">
              {t('lend.held_of_limit', { defaultValue: '{{held}} of {{limit}} allowed', held: stock.data.held, limit: stock.data.limit })}
            </Text>
          </Group>
          {held.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('lend.none_held', { defaultValue: 'No book out.' })}
            </Text>
          ) : (
            <Table striped data-testid="lend-held-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('lend.book', { defaultValue: 'Book' })}</Table.Th>
                  <Table.Th ta="right">{t('lend.qty', { defaultValue: 'Qty' })}</Table.Th>
                  <Table.Th>{t('lend.due', { defaultValue: 'Due' })}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {held.map((b) => (
                  <Table.Tr key={b.bk_cd} data-overdue={b.days_overdue > 0 ? 'yes' : 'no'}>
                    <Table.Td>{b.bk_nm}</Table.Td>
                    <Table.Td ta="right">{b.qty}</Table.Td>
                    <Table.Td>{dueCell(b.due_dt, b.days_overdue)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Paper>
      )}

      {stock.data && (
        <Paper withBorder p="sm" radius="md">
          <Stack gap="xs">
            <Group align="flex-start" wrap="wrap" gap="xs">
              <TextInput
                ref={barcodeRef}
                label={t('lend.barcode', { defaultValue: 'Barcode' })}
                placeholder={t('lend.scan_here', { defaultValue: 'Scan or type, then Enter' })}
                leftSection={<IconBarcode size={16} />}
                value={barcode}
                onChange={(e) => {
                  const v = e.currentTarget.value;
                  setBarcode(v);
                  if (scanError) setScanError(null);
                }}
                onKeyDown={onBarcodeKey}
                error={scanError}
                autoComplete="off"
                maxLength={50}
                style={{ flex: 1, minWidth: compact ? '100%' : 220 }}
                data-testid="lend-barcode"
              />
              <Select
                label={t('lend.find_book', { defaultValue: 'Or find a book' })}
                placeholder={t('lend.search_book', { defaultValue: 'Title or barcode' })}
                leftSection={<IconSearch size={16} />}
                searchable
                searchValue={bookSearch}
                onSearchChange={setBookSearch}
                filter={({ options }) => options}
                data={(issue ? (books.data ?? []) : held.filter((h) => h.bk_nm.toLowerCase().includes(bq.trim().toLowerCase()))).map((b) => ({
                  value: String(b.bk_cd),
                  label: 'available' in b ? `${b.bk_nm} (${t('lend.on_shelf', { defaultValue: '{{n}} on the shelf', n: b.available })})` : b.bk_nm,
                }))}
                value={null}
                onChange={(v) => {
                  if (!v) return;
                  const id = Number(v);
                  const hit = issue ? books.data?.find((b) => b.bk_cd === id) : held.map((h) => ({ ...h, available: h.qty })).find((b) => b.bk_cd === id);
                  if (hit) addBook(hit);
                  setBookSearch('');
                }}
                nothingFoundMessage={bq ? t('grid.no_rows', { defaultValue: 'No Rows To Show' }) : undefined}
                style={{ flex: 1, minWidth: compact ? '100%' : 220 }}
                data-testid="lend-book-search"
              />
            </Group>

            {cart.length === 0 ? (
              <Alert color="gray" variant="light">
                {t('lend.cart_empty', { defaultValue: 'No book on the desk yet: scan a barcode or find a title.' })}
              </Alert>
            ) : (
              <Table data-testid="lend-cart">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('lend.book', { defaultValue: 'Book' })}</Table.Th>
                    <Table.Th w={compact ? 80 : 110}>{t('lend.qty', { defaultValue: 'Qty' })}</Table.Th>
                    <Table.Th w={40} />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {cart.map((l) => (
                    <Table.Tr key={l.bk_cd}>
                      <Table.Td>
                        <Text size="sm">{l.bk_nm}</Text>
                        <Text size="xs" c={l.qty > l.max ? 'red' : 'dimmed'}>
                          {issue ? t('lend.on_shelf', { defaultValue: '{{n}} on the shelf', n: l.max }) : t('lend.holds', { defaultValue: '{{n}} held', n: l.max })}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <NumberInput
                          size="xs"
                          min={1}
                          max={1000}
                          allowDecimal={false}
                          allowNegative={false}
                          value={l.qty}
                          error={l.qty > l.max}
                          onChange={(v) => setCart((c) => setQty(c, l.bk_cd, Number(v)))}
                          aria-label={`${t('lend.qty', { defaultValue: 'Qty' })} ${l.bk_nm}`}
                        />
                      </Table.Td>
                      <Table.Td>
                        <ActionIcon variant="subtle" color="red" onClick={() => setCart((c) => removeLine(c, l.bk_cd))} aria-label={`${t('lend.remove', { defaultValue: 'Remove' })} ${l.bk_nm}`}>
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}

            <Group align="flex-end" wrap="wrap" gap="xs" justify="space-between">
              {issue ? (
                <DatePickerInput
                  label={t('field.book_checkout.bk_chk_due_dt', { defaultValue: 'Due Date' })}
                  value={dueShown}
                  onChange={(v) => setDue(v)}
                  minDate={dayjs().format('YYYY-MM-DD')}
                  valueFormat={DATE_FORMAT}
                  leftSection={<IconCalendar size={14} />}
                  w={compact ? '100%' : 200}
                  data-testid="lend-due"
                />
              ) : (
                <span />
              )}
              {can('create') && (
                <Button
                  leftSection={issue ? <IconBookUpload size={16} /> : <IconBookDownload size={16} />}
                  onClick={() => void submit()}
                  loading={saving}
                  disabled={saving || cart.length === 0}
                  fullWidth={compact}
                  data-testid="lend-submit"
                >
                  {issue
                    ? t('lend.issue', { defaultValue: 'Issue {{n}} book(s)', n: cartCopies(cart) })
                    : t('lend.return', { defaultValue: 'Return {{n}} book(s)', n: cartCopies(cart) })}
                </Button>
              )}
            </Group>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}

export function IssueBooksPage(): JSX.Element {
  return <LendBooksDesk mode="issue" />;
}

export function ReturnBooksPage(): JSX.Element {
  return <LendBooksDesk mode="return" />;
}
