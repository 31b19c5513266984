import { Badge, Button, Divider, Group, Paper, SegmentedControl, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { useState, type JSX, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatMoney, formatTime } from '../../lib/format';
import { HttpError } from '../../lib/http-client';
import { printPdf, type PageSize } from '../../lib/print-pdf';

/** A bill as GET /api/fee_collection/bill/:id and the collect route answer it (docs/api-contract.md). */
export interface Receipt {
  bill: Record<string, unknown> & { fee_coll_cd: number; fee_coll_bill_no: number; fee_coll_amt: string; fee_coll_sts?: string };
  lines: { kind: string; fee_grp_nm: string; feetyp_nm: string | null; amount: string; discount?: string }[];
  institute: { inst_nm: string; inst_adr1: string | null; inst_adr2: string | null; inst_ph: string | null; inst_eml?: string | null };
  student: { stud_fs_nm: string; stud_adm_cd: string; stud_fthr_nm: string | null; cls_nm: string | null; sec_nm: string | null };
  academic_year: string;
  tender: { tnd_typ_nm: string | null; reference_label: string | null; reference: string | null };
  cashier: string;
  amount_in_words: string;
  balance_due: string;
  cancellation: { date: string; by: string; reason: string } | null;
}

const SIZE_KEY = 'campus.receipt.size';

function storedSize(): PageSize {
  try {
    return localStorage.getItem(SIZE_KEY) === 'A4' ? 'A4' : 'A5';
  } catch {
    return 'A5';
  }
}

/** The server's PDF (the paper), printed without the app around it; the paper size is remembered per browser. */
function PrintButton({ billCd, autoFocus, headers }: { billCd: number; autoFocus: boolean; headers?: Record<string, string> }): JSX.Element {
  const { t } = useTranslation();
  const [size, setSize] = useState<PageSize>(storedSize);
  const [busy, setBusy] = useState(false);
  const choose = (v: string) => {
    const next: PageSize = v === 'A4' ? 'A4' : 'A5';
    setSize(next);
    try {
      localStorage.setItem(SIZE_KEY, next);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
  };
  const print = () => {
    setBusy(true);
    printPdf(`/api/fee_collection/bill/${billCd}/pdf`, { size, headers })
      .catch((e: unknown) => {
        // The client has shown the server's reason; anything else is a real fault.
        if (!(e instanceof HttpError)) throw e;
      })
      .finally(() => setBusy(false));
  };
  return (
    <Group gap="xs" wrap="nowrap">
      <Button leftSection={<IconPrinter size={16} />} onClick={print} loading={busy} autoFocus={autoFocus} data-testid="receipt-print">
        {t('collect.print', { defaultValue: 'Print' })}
      </Button>
      <SegmentedControl
        size="xs"
        value={size}
        onChange={choose}
        data={['A5', 'A4']}
        aria-label={t('print.paper', { defaultValue: 'Paper size' })}
        data-testid="receipt-size"
      />
    </Group>
  );
}

function Fact({ label, value, testId, strong = false }: { label: string; value: ReactNode; testId?: string; strong?: boolean }): JSX.Element {
  return (
    <Text size="sm">
      <Text span c="dimmed" size="sm">
        {label}:{' '}
      </Text>
      <Text span fw={strong ? 700 : 400} size="sm" data-testid={testId}>
        {value}
      </Text>
    </Text>
  );
}

/**
 * The receipt on screen, the same at the counter and when reprinted from Fee Collected, with the labels the
 * paper uses (print.receipt.*). Print sends the server's PDF to the printer, never this page. A cancelled
 * bill says so on screen and on paper, so a reprint can never pass for a valid receipt.
 */
export function FeeReceipt({
  receipt,
  actions,
  autoFocusPrint = false,
  requestHeaders,
}: {
  receipt: Receipt;
  actions?: ReactNode;
  autoFocusPrint?: boolean;
  /** The screen's header overrides: a bill of an earlier year is read in that year. */
  requestHeaders?: Record<string, string>;
}): JSX.Element {
  const { t } = useTranslation();
  const b = receipt.bill;
  const s = receipt.student;
  const cancelled = b.fee_coll_sts === 'Cancelled';
  const label = (key: string, fallback: string) => t(`print.receipt.${key}`, { defaultValue: fallback });
  const withDiscount = receipt.lines.some((l) => Number(l.discount ?? 0) > 0);
  const inst = receipt.institute;
  const tender = [receipt.tender.tnd_typ_nm, receipt.tender.reference ? `${receipt.tender.reference_label ?? label('reference', 'Reference')}: ${receipt.tender.reference}` : null]
    .filter(Boolean)
    .join(', ');
  return (
    <Stack gap="sm" maw={760} data-testid="fee-receipt">
      <Group gap="xs" wrap="wrap">
        <PrintButton billCd={Number(b.fee_coll_cd)} autoFocus={autoFocusPrint} headers={requestHeaders} />
        {actions}
      </Group>
      <Paper withBorder p={{ base: 'sm', sm: 'md' }}>
        <Stack gap={4}>
          <Title order={4} ta="center">
            {inst.inst_nm}
          </Title>
          <Text size="sm" ta="center" data-testid="receipt-institute-address">
            {[inst.inst_adr1, inst.inst_adr2].filter(Boolean).join(', ')}
          </Text>
          <Text size="xs" ta="center" c="dimmed">
            {[inst.inst_ph ? `${t('print.phone', { defaultValue: 'Phone' })}: ${inst.inst_ph}` : '', inst.inst_eml ? `${t('print.email', { defaultValue: 'E-mail' })}: ${inst.inst_eml}` : '']
              .filter(Boolean)
              .join(' · ')}
          </Text>
          <Divider my={4} />
          <Text fw={700} ta="center">
            {label('title', 'Fee Receipt')}
          </Text>
          {cancelled && (
            <Badge color="red" size="xl" variant="outline" mx="auto" my="xs" data-testid="receipt-cancelled">
              {t('collect.cancelled', { defaultValue: 'CANCELLED' })}
            </Badge>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={4} verticalSpacing={2} mt={4}>
            <Fact label={label('bill_no', 'Receipt No')} value={b.fee_coll_bill_no} strong testId="receipt-bill-no" />
            <Fact label={label('date', 'Date')} value={`${formatDate(String(b.fee_coll_crt_dt))} ${formatTime(String(b.fee_coll_crt_tm ?? ''))}`} />
            <Fact label={label('student', 'Student')} value={s.stud_fs_nm} strong />
            <Fact label={label('admission_no', 'Admission No')} value={s.stud_adm_cd} />
            <Fact label={label('father', "Father's Name")} value={s.stud_fthr_nm ?? ''} testId="receipt-father" />
            <Fact label={label('class_section', 'Class - Section')} value={[s.cls_nm, s.sec_nm].filter(Boolean).join(' - ')} testId="receipt-class" />
            <Fact label={label('academic_year', 'Academic Year')} value={receipt.academic_year} />
          </SimpleGrid>
          <Table withTableBorder mt="xs" td={cancelled ? 'line-through' : undefined}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={48}>{label('sno', 'S.No')}</Table.Th>
                <Table.Th>{label('particulars', 'Particulars')}</Table.Th>
                {withDiscount && <Table.Th ta="right">{label('discount', 'Discount')}</Table.Th>}
                <Table.Th ta="right">{label('amount', 'Amount')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {receipt.lines.map((l, i) => (
                <Table.Tr key={i}>
                  <Table.Td>{i + 1}</Table.Td>
                  <Table.Td>
                    {l.kind === 'Late Fee' ? label('late_fee', 'Late Fee') : l.feetyp_nm} ({l.fee_grp_nm})
                  </Table.Td>
                  {withDiscount && <Table.Td ta="right">{formatMoney(l.discount ?? '0')}</Table.Td>}
                  <Table.Td ta="right">{formatMoney(l.amount)}</Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Td colSpan={withDiscount ? 3 : 2} fw={700}>
                  {label('total', 'Total Paid')}
                </Table.Td>
                <Table.Td ta="right" fw={700} data-testid="receipt-total">
                  {formatMoney(b.fee_coll_amt)}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <Fact label={label('in_words', 'Amount in words')} value={receipt.amount_in_words} testId="receipt-words" />
          {!cancelled && <Fact label={label('balance', 'Balance Due')} value={formatMoney(receipt.balance_due)} strong testId="receipt-balance" />}
          <Fact label={label('tender', 'Paid by')} value={tender} />
          <Fact label={label('cashier', 'Cashier')} value={receipt.cashier} testId="receipt-cashier" />
          {receipt.cancellation && (
            <Text size="sm" c="red" fw={600} data-testid="receipt-cancellation">
              {t('print.receipt.cancelled_by', {
                defaultValue: 'Cancelled on {{date}} by {{user}}. Reason: {{reason}}',
                date: formatDate(receipt.cancellation.date),
                user: receipt.cancellation.by,
                reason: receipt.cancellation.reason,
              })}
            </Text>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
