import { Alert, Button, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue, useHotkeys, useMediaQuery } from '@mantine/hooks';
import { IconArrowLeft, IconCalendarDue, IconDeviceFloppy, IconUserPlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { usePagePermission } from '../../app/page-permission-context';
import { MOBILE_QUERY } from '../../engine/responsive';
import { listQueryKey } from '../../engine/use-entity-list';
import { formatMoney } from '../../lib/format';
import { HttpError, http } from '../../lib/http-client';
import { SOCKET_DOM_EVENT, type SocketDomDetail } from '../../lib/realtime-socket';
import { toast } from '../../lib/toast';
import { byTerm, collectBody, isWalletTender, lineKey, overDue, payAll, sanitizeAmount, toPaise, totalOf, type DueLine, type Tender, type WalletBalance } from './collect-model';
import { FeeReceipt, type Receipt } from './fee-receipt';

interface StudentHit {
  stud_cd: number;
  stud_fs_nm: string;
  stud_adm_cd: string;
  cls_nm: string | null;
  sec_nm: string | null;
  /** In the dues' answer only: the class whose fee mapping changes reload them. */
  cls_cd?: number;
}

interface Dues {
  student: StudentHit;
  promoted: boolean;
  lines: DueLine[];
  tenders: Tender[];
  /** The student's wallet (null without one): shown when the tender 'Wallet' is chosen. */
  wallet: WalletBalance | null;
}

export interface CollectFeeProps {
  /** The student chosen on a grid (view mode): the screen opens on their dues, without the search. */
  student?: number;
  /**
   * An earlier academic year whose dues are collected (academic fee collect): every request of the screen
   * names that year, so the dues, the bill and its number are that year's, and the screen says so.
   */
  year?: { acdm_cd: number; label: string };
  /** Where Back and, with a chosen student, the receipt's second button go. */
  back?: string;
}

/** The entity lists a new bill changes: read again when the user goes back to them. */
const changedLists = ['student_detail', 'fee_collection', 'academic_fee_collect', 'collected_fee', 'wallet', 'wallet_transaction'] as const;

/** The fee counter: find the child (or open on the one chosen), tick what is paid, save, print. */
export function CollectFeePage({ student, year, back = '/sms/fee/quick_fee_collection/table' }: CollectFeeProps = {}): JSX.Element {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { can } = usePagePermission();
  // The server refuses a bill without the page's create button; without it the screen only shows the dues.
  const canCollect = can('create');
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search, 250);
  const [studCd, setStudCd] = useState<number | null>(student ?? null);
  const yearCd = year?.acdm_cd ?? null;
  // The caller's headers replace the session's year on every request of this screen (http-client).
  const headers = useMemo(() => (year ? { acdm_cd: String(year.acdm_cd), acdm_year: year.label } : undefined), [year]);
  const [payNow, setPayNow] = useState<Record<string, string>>({});
  const [tender, setTender] = useState<string | null>(null);
  const [reference, setReference] = useState('');
  const [saving, setSaving] = useState(false);
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  // On a phone the dues keep the three columns the clerk needs (fee, due, pay now) so nothing scrolls sideways.
  const compact = useMediaQuery(MOBILE_QUERY, false, { getInitialValueInEffect: false });
  // One key per attempt: a double click or a retry after a lost answer returns the first bill.
  const attempt = useRef<string>(crypto.randomUUID());

  const hits = useQuery({
    queryKey: ['collect-fee', 'students', yearCd, q],
    // The page's own list (the student finder): its search, scope and 'his students only' apply unchanged.
    queryFn: async () => (await http.get<{ rows: StudentHit[] }>(`/api/student/detail/?q=${encodeURIComponent(q)}&size=20`, { headers })).rows,
    enabled: student === undefined && q.trim().length > 0,
  });
  const dues = useQuery({
    queryKey: ['collect-fee', 'dues', yearCd, studCd],
    queryFn: () => http.get<Dues>(`/api/fee_collection/student/${studCd}/dues`, { headers }),
    enabled: studCd !== null,
  });

  const lines = dues.data?.lines ?? [];
  const chosenTender = dues.data?.tenders.find((x) => String(x.tnd_typ_cd) === tender) ?? null;
  const refLabel = chosenTender?.tnd_typ_fld_val?.trim() || null;
  const total = totalOf(payNow);
  const payingFromWallet = isWalletTender(chosenTender);
  const wallet = dues.data?.wallet ?? null;
  const walletShort = payingFromWallet && (wallet === null || toPaise(total) > toPaise(wallet.balance));

  const pickStudent = (v: string | null) => {
    setStudCd(v ? Number(v) : null);
    setPayNow({});
    setReference('');
    attempt.current = crypto.randomUUID();
  };

  const save = async () => {
    if (saving || !dues.data || studCd === null) return;
    if (!chosenTender) return toast.warning(t('collect.choose_tender', { defaultValue: "Please select the 'Tender Type'." }));
    if (refLabel && !reference.trim()) return toast.warning(t('collect.enter_reference', { defaultValue: "Please enter the '{{label}}'.", label: refLabel }));
    if (overDue(lines, payNow).length > 0) return toast.warning(t('collect.above_due', { defaultValue: 'An amount is above its due.' }));
    if (toPaise(total) === 0) return toast.warning(t('collect.nothing', { defaultValue: 'Enter an amount to collect.' }));
    if (payingFromWallet && !wallet) return toast.warning(t('collect.no_wallet', { defaultValue: 'This student has no wallet to pay from.' }));
    if (payingFromWallet && wallet && walletShort) {
      return toast.warning(t('collect.wallet_short', { defaultValue: 'The wallet has only {{balance}}.', balance: formatMoney(wallet.balance) }));
    }
    setSaving(true);
    try {
      const r = await http.post<Receipt>('/api/fee_collection/collect', collectBody(studCd, chosenTender.tnd_typ_cd, refLabel ? reference : '', lines, payNow, attempt.current), {
        headers,
      });
      setReceipt(r);
      for (const name of changedLists) void queryClient.invalidateQueries({ queryKey: listQueryKey(name) });
    } catch (e) {
      // The client has shown the server's sentence; a refused payment gets a new key for the next try.
      if (!(e instanceof HttpError)) throw e;
      if (e.status >= 400 && e.status < 500) attempt.current = crypto.randomUUID();
      void dues.refetch();
    } finally {
      setSaving(false);
    }
  };

  const nextStudent = () => {
    setReceipt(null);
    setSearch('');
    pickStudent(null);
  };

  useHotkeys([['mod+S', () => canCollect && void save()]], []);

  // studentFeegroupSync: the fee mapping of the open student's class changed (another desk, the office). With
  // nothing typed the dues reload at once; with amounts typed they are kept and the clerk reloads when ready
  // (the typed amounts stay, and the save is checked against the new dues).
  const [duesChanged, setDuesChanged] = useState(false);
  const live = useRef({ openCls: undefined as number | undefined, typed: false, refetch: () => undefined as unknown });
  live.current = { openCls: dues.data?.student.cls_cd, typed: Object.values(payNow).some((v) => v.trim() !== ''), refetch: () => void dues.refetch() };
  useEffect(() => {
    const onSocket = (e: Event) => {
      const detail = (e as CustomEvent<SocketDomDetail>).detail;
      if (detail?.event !== 'studentFeegroupSync' || !detail.payload || typeof detail.payload !== 'object') return;
      const p = detail.payload as { cls_cd?: unknown; acdm_cd?: unknown };
      const { openCls, typed, refetch } = live.current;
      if (openCls === undefined || Number(p.cls_cd) !== openCls) return;
      // Another year's mapping (an earlier year's arrears screen, or the other way round) leaves these dues alone.
      if (yearCd !== null && p.acdm_cd != null && Number(p.acdm_cd) !== yearCd) return;
      if (typed) {
        setDuesChanged(true);
        toast.warning(t('dm.dues_changed', { defaultValue: 'The fee mapping of this class changed: press Refresh to see the new dues (your typed amounts are kept until then).' }));
      } else {
        refetch();
        toast.info(t('dm.dues_reloaded', { defaultValue: 'The fee mapping of this class changed: the dues were reloaded.' }));
      }
    };
    window.addEventListener(SOCKET_DOM_EVENT, onSocket);
    return () => window.removeEventListener(SOCKET_DOM_EVENT, onSocket);
  }, [t, yearCd]);
  useEffect(() => setDuesChanged(false), [studCd]);

  if (receipt) {
    return (
      <FeeReceipt
        receipt={receipt}
        autoFocusPrint
        requestHeaders={headers}
        actions={
          student === undefined ? (
            <Button variant="light" leftSection={<IconUserPlus size={16} />} onClick={nextStudent} data-testid="receipt-next">
              {t('collect.next_student', { defaultValue: 'Next student' })}
            </Button>
          ) : (
            <Button variant="light" leftSection={<IconArrowLeft size={16} />} onClick={() => navigate(back)} data-testid="receipt-back">
              {t('collect.back_to_list', { defaultValue: 'Back to the list' })}
            </Button>
          )
        }
      />
    );
  }

  return (
    <Stack gap="sm" data-testid="collect-fee">
      <Group justify="space-between">
        <Title order={4}>{t('page.fee.quick_fee_collection', { defaultValue: 'Quick Fee Collection' })}</Title>
        <Button variant="subtle" size="xs" leftSection={<IconArrowLeft size={14} />} onClick={() => navigate(back)}>
          {t('collect.back', { defaultValue: 'Back to list' })}
        </Button>
      </Group>
      {year && (
        <Alert color="orange" variant="light" icon={<IconCalendarDue size={18} />} data-testid="collect-year">
          {t('collect.other_year', { defaultValue: 'Collecting dues of academic year {{year}}', year: year.label })}
        </Alert>
      )}
      {student !== undefined ? (
        <Text fw={600} data-testid="collect-chosen">
          {dues.data
            ? `${dues.data.student.stud_fs_nm} - ${dues.data.student.stud_adm_cd} - ${dues.data.student.cls_nm ?? ''} ${dues.data.student.sec_nm ?? ''}`
            : t('collect.loading', { defaultValue: 'Loading the dues...' })}
        </Text>
      ) : (
        <Select
          label={t('collect.student', { defaultValue: 'Student' })}
          placeholder={t('collect.search_student', { defaultValue: 'Name or admission no' })}
          searchable
          autoFocus
          clearable
          searchValue={search}
          onSearchChange={setSearch}
          filter={({ options }) => options}
          data={(hits.data ?? []).map((h) => ({ value: String(h.stud_cd), label: `${h.stud_fs_nm} - ${h.stud_adm_cd} - ${h.cls_nm ?? ''} ${h.sec_nm ?? ''}` }))}
          value={studCd === null ? null : String(studCd)}
          onChange={pickStudent}
          nothingFoundMessage={q ? t('grid.no_rows', { defaultValue: 'No Rows To Show' }) : undefined}
          data-testid="collect-student"
        />
      )}
      {dues.data && (
        <>
          {duesChanged && (
            <Alert color="yellow" variant="light" data-testid="collect-dues-changed">
              <Group justify="space-between" wrap="nowrap">
                <Text size="sm">{t('dm.dues_changed', { defaultValue: 'The fee mapping of this class changed: press Refresh to see the new dues (your typed amounts are kept until then).' })}</Text>
                <Button
                  size="xs"
                  variant="light"
                  onClick={() => {
                    setDuesChanged(false);
                    void dues.refetch();
                  }}
                  data-testid="collect-dues-reload"
                >
                  {t('btn.refresh', { defaultValue: 'Refresh' })}
                </Button>
              </Group>
            </Alert>
          )}
          {lines.length === 0 && <Alert color="gray">{t('collect.no_fees', { defaultValue: "No fee is mapped to this student's class this year." })}</Alert>}
          <Table.ScrollContainer minWidth={compact ? 0 : 560}>
            <Table striped withTableBorder data-testid="collect-dues">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('collect.fee', { defaultValue: 'Fee' })}</Table.Th>
                  {!compact && (
                    <>
                      <Table.Th ta="right">{t('collect.amount', { defaultValue: 'Amount' })}</Table.Th>
                      <Table.Th ta="right">{t('collect.discount', { defaultValue: 'Discount' })}</Table.Th>
                      <Table.Th ta="right">{t('collect.paid', { defaultValue: 'Paid' })}</Table.Th>
                    </>
                  )}
                  <Table.Th ta="right">{t('collect.due', { defaultValue: 'Due' })}</Table.Th>
                  <Table.Th ta="right">{t('collect.pay_now', { defaultValue: 'Pay Now' })}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {byTerm(lines).map((g) => [
                  <Table.Tr key={`g${g.fee_grp_cd}`}>
                    <Table.Td colSpan={compact ? 3 : 6} fw={700}>{g.fee_grp_nm}</Table.Td>
                  </Table.Tr>,
                  ...g.lines.map((l) => {
                    const k = lineKey(l);
                    const over = toPaise(payNow[k]) > toPaise(l.due);
                    return (
                      <Table.Tr key={k}>
                        <Table.Td>{l.kind === 'Late Fee' ? t('collect.late_fee', { defaultValue: 'Late Fee' }) : l.feetyp_nm}</Table.Td>
                        {!compact && (
                          <>
                            <Table.Td ta="right">{formatMoney(l.amount)}</Table.Td>
                            <Table.Td ta="right">{formatMoney(l.discount)}</Table.Td>
                            <Table.Td ta="right">{formatMoney(l.paid)}</Table.Td>
                          </>
                        )}
                        <Table.Td ta="right">{formatMoney(l.due)}</Table.Td>
                        <Table.Td w={compact ? 110 : 140}>
                          <TextInput
                            size="xs"
                            inputMode="decimal"
                            disabled={toPaise(l.due) === 0}
                            value={payNow[k] ?? ''}
                            error={over}
                            aria-label={`${t('collect.pay_now', { defaultValue: 'Pay Now' })} ${l.feetyp_nm ?? ''} ${l.fee_grp_nm}`}
                            onChange={(e) => {
                              // Read the box now: React runs the updater later, when the event's
                              // currentTarget is already null (the second key crashed the counter).
                              const typed = sanitizeAmount(e.currentTarget.value);
                              setPayNow((p) => ({ ...p, [k]: typed }));
                            }}
                            styles={{ input: { textAlign: 'right' } }}
                          />
                        </Table.Td>
                      </Table.Tr>
                    );
                  }),
                ])}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Button variant="light" size="xs" onClick={() => setPayNow(payAll(lines))} data-testid="collect-pay-all">
              {t('collect.pay_all', { defaultValue: 'Pay all' })}
            </Button>
            <Text fw={700} data-testid="collect-total">
              {t('collect.total', { defaultValue: 'Total' })}: {formatMoney(total)}
            </Text>
          </Group>
          <Group align="flex-end" wrap="wrap" gap="xs">
            <Select
              label={t('collect.tender', { defaultValue: 'Tender Type' })}
              data={dues.data.tenders.map((x) => ({ value: String(x.tnd_typ_cd), label: x.tnd_typ_nm }))}
              value={tender}
              onChange={setTender}
              w={220}
              data-testid="collect-tender"
            />
            {payingFromWallet && (
              <Text size="sm" fw={600} c={walletShort ? 'red' : 'teal'} pb={8} data-testid="collect-wallet-balance">
                {wallet
                  ? t('collect.wallet_balance', { defaultValue: 'Wallet balance: {{balance}}', balance: formatMoney(wallet.balance) })
                  : t('collect.no_wallet', { defaultValue: 'This student has no wallet to pay from.' })}
              </Text>
            )}
            {refLabel && <TextInput label={refLabel} value={reference} onChange={(e) => setReference(e.currentTarget.value)} maxLength={100} w={220} data-testid="collect-reference" />}
            {canCollect && (
              <Button leftSection={<IconDeviceFloppy size={16} />} onClick={() => void save()} loading={saving} disabled={saving} data-testid="collect-save">
                {t('collect.save', { defaultValue: 'Save (Ctrl+S)' })}
              </Button>
            )}
          </Group>
        </>
      )}
    </Stack>
  );
}
