import { Alert, Button, Divider, Group, Paper, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue, useHotkeys } from '@mantine/hooks';
import { IconArrowLeft, IconDeviceFloppy, IconPrinter, IconUserPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { HttpError, http } from '../../lib/http-client';
import { toast } from '../../lib/toast';
import { byTerm, collectBody, lineKey, overDue, payAll, sanitizeAmount, toPaise, totalOf, type DueLine, type Tender } from './collect-model';

interface StudentHit {
  stud_cd: number;
  stud_fs_nm: string;
  stud_adm_cd: string;
  cls_nm: string | null;
  sec_nm: string | null;
}

interface Dues {
  student: StudentHit;
  promoted: boolean;
  lines: DueLine[];
  tenders: Tender[];
}

interface Receipt {
  bill: Record<string, unknown> & { fee_coll_bill_no: number; fee_coll_amt: string };
  lines: { kind: string; fee_grp_nm: string; feetyp_nm: string | null; amount: string }[];
  institute: { inst_nm: string; inst_adr1: string | null; inst_adr2: string | null; inst_ph: string | null };
}

const PRINT_DELAY_MS = 500;

/** The fee counter (quick fee collection, create mode): find the child, tick what is paid, save, print. */
export function CollectFeePage(): JSX.Element {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search, 250);
  const [studCd, setStudCd] = useState<number | null>(null);
  const [payNow, setPayNow] = useState<Record<string, string>>({});
  const [tender, setTender] = useState<string | null>(null);
  const [reference, setReference] = useState('');
  const [saving, setSaving] = useState(false);
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  // One key per attempt: a double click or a retry after a lost answer returns the first bill.
  const attempt = useRef<string>(crypto.randomUUID());

  const hits = useQuery({
    queryKey: ['collect-fee', 'students', q],
    queryFn: () => http.get<StudentHit[]>(`/api/fee_collection/students?q=${encodeURIComponent(q)}`),
    enabled: q.trim().length > 0,
  });
  const dues = useQuery({
    queryKey: ['collect-fee', 'dues', studCd],
    queryFn: () => http.get<Dues>(`/api/fee_collection/student/${studCd}/dues`),
    enabled: studCd !== null,
  });

  const lines = dues.data?.lines ?? [];
  const chosenTender = dues.data?.tenders.find((x) => String(x.tnd_typ_cd) === tender) ?? null;
  const refLabel = chosenTender?.tnd_typ_fld_val?.trim() || null;
  const total = totalOf(payNow);

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
    setSaving(true);
    try {
      const r = await http.post<Receipt>('/api/fee_collection/collect', collectBody(studCd, chosenTender.tnd_typ_cd, refLabel ? reference : '', lines, payNow, attempt.current));
      setReceipt(r);
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

  useHotkeys([['mod+S', () => void save()]], []);

  if (receipt) {
    const b = receipt.bill;
    return (
      <Stack gap="sm" maw={720} data-testid="fee-receipt">
        <Group className="no-print" gap="xs">
          <Button leftSection={<IconPrinter size={16} />} onClick={() => setTimeout(() => window.print(), PRINT_DELAY_MS)} autoFocus data-testid="receipt-print">
            {t('collect.print', { defaultValue: 'Print' })}
          </Button>
          <Button variant="light" leftSection={<IconUserPlus size={16} />} onClick={nextStudent} data-testid="receipt-next">
            {t('collect.next_student', { defaultValue: 'Next student' })}
          </Button>
        </Group>
        <Paper withBorder p="md">
          <Stack gap={4}>
            <Title order={4} ta="center">{receipt.institute.inst_nm}</Title>
            <Text size="sm" ta="center">{[receipt.institute.inst_adr1, receipt.institute.inst_adr2, receipt.institute.inst_ph].filter(Boolean).join(', ')}</Text>
            <Divider my="xs" />
            <Group justify="space-between">
              <Text size="sm">{t('collect.bill_no', { defaultValue: 'Bill No' })}: <b>{b.fee_coll_bill_no}</b></Text>
              <Text size="sm">{String(b.fee_coll_crt_dt)} {String(b.fee_coll_crt_tm ?? '')}</Text>
            </Group>
            <Text size="sm">
              {String(b.stud_fs_nm)} ({String(b.stud_adm_cd)}) - {String(b.cls_nm ?? '')} {String(b.sec_nm ?? '')}
            </Text>
            <Table withTableBorder mt="xs">
              <Table.Tbody>
                {receipt.lines.map((l, i) => (
                  <Table.Tr key={i}>
                    <Table.Td>{l.kind === 'Late Fee' ? t('collect.late_fee', { defaultValue: 'Late Fee' }) : l.feetyp_nm} ({l.fee_grp_nm})</Table.Td>
                    <Table.Td ta="right">{l.amount}</Table.Td>
                  </Table.Tr>
                ))}
                <Table.Tr>
                  <Table.Td fw={700}>{t('collect.total', { defaultValue: 'Total' })}</Table.Td>
                  <Table.Td ta="right" fw={700} data-testid="receipt-total">{b.fee_coll_amt}</Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
            <Text size="sm">
              {t('collect.tender', { defaultValue: 'Tender Type' })}: {String(b.tnd_typ_nm ?? '')}
              {b.fee_coll_ref ? ` - ${String(b.fee_coll_ref)}` : ''}
            </Text>
            <Text size="sm">{t('collect.collected_by', { defaultValue: 'Collected By' })}: {String(b.fee_coll_by ?? '')}</Text>
          </Stack>
        </Paper>
      </Stack>
    );
  }

  return (
    <Stack gap="sm" data-testid="collect-fee">
      <Group justify="space-between">
        <Title order={4}>{t('page.fee.quick_fee_collection', { defaultValue: 'Quick Fee Collection' })}</Title>
        <Button variant="subtle" size="xs" leftSection={<IconArrowLeft size={14} />} onClick={() => navigate('/sms/fee/quick_fee_collection/table')}>
          {t('collect.back', { defaultValue: 'Back to bills' })}
        </Button>
      </Group>
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
        nothingFoundMessage={q ? t('grid.no_rows', { defaultValue: 'No rows' }) : undefined}
        data-testid="collect-student"
      />
      {dues.data && (
        <>
          {lines.length === 0 && <Alert color="gray">{t('collect.no_fees', { defaultValue: "No fee is mapped to this student's class this year." })}</Alert>}
          <Table.ScrollContainer minWidth={560}>
            <Table striped withTableBorder data-testid="collect-dues">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('collect.fee', { defaultValue: 'Fee' })}</Table.Th>
                  <Table.Th ta="right">{t('collect.amount', { defaultValue: 'Amount' })}</Table.Th>
                  <Table.Th ta="right">{t('collect.discount', { defaultValue: 'Discount' })}</Table.Th>
                  <Table.Th ta="right">{t('collect.paid', { defaultValue: 'Paid' })}</Table.Th>
                  <Table.Th ta="right">{t('collect.due', { defaultValue: 'Due' })}</Table.Th>
                  <Table.Th ta="right">{t('collect.pay_now', { defaultValue: 'Pay Now' })}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {byTerm(lines).map((g) => [
                  <Table.Tr key={`g${g.fee_grp_cd}`}>
                    <Table.Td colSpan={6} fw={700}>{g.fee_grp_nm}</Table.Td>
                  </Table.Tr>,
                  ...g.lines.map((l) => {
                    const k = lineKey(l);
                    const over = toPaise(payNow[k]) > toPaise(l.due);
                    return (
                      <Table.Tr key={k}>
                        <Table.Td>{l.kind === 'Late Fee' ? t('collect.late_fee', { defaultValue: 'Late Fee' }) : l.feetyp_nm}</Table.Td>
                        <Table.Td ta="right">{l.amount}</Table.Td>
                        <Table.Td ta="right">{l.discount}</Table.Td>
                        <Table.Td ta="right">{l.paid}</Table.Td>
                        <Table.Td ta="right">{l.due}</Table.Td>
                        <Table.Td w={140}>
                          <TextInput
                            size="xs"
                            inputMode="decimal"
                            disabled={toPaise(l.due) === 0}
                            value={payNow[k] ?? ''}
                            error={over}
                            aria-label={`${t('collect.pay_now', { defaultValue: 'Pay Now' })} ${l.feetyp_nm ?? ''} ${l.fee_grp_nm}`}
                            onChange={(e) => setPayNow((p) => ({ ...p, [k]: sanitizeAmount(e.currentTarget.value) }))}
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
              {t('collect.total', { defaultValue: 'Total' })}: {total}
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
            {refLabel && <TextInput label={refLabel} value={reference} onChange={(e) => setReference(e.currentTarget.value)} maxLength={100} w={220} data-testid="collect-reference" />}
            <Button leftSection={<IconDeviceFloppy size={16} />} onClick={() => void save()} loading={saving} disabled={saving} data-testid="collect-save">
              {t('collect.save', { defaultValue: 'Save (Ctrl+S)' })}
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}
