import { Badge, Button, Divider, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import type { JSX, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatTime } from '../../lib/format';

/** A bill as GET /api/fee_collection/bill/:id and the collect route answer it. */
export interface Receipt {
  bill: Record<string, unknown> & { fee_coll_bill_no: number; fee_coll_amt: string; fee_coll_sts?: string };
  lines: { kind: string; fee_grp_nm: string; feetyp_nm: string | null; amount: string }[];
  institute: { inst_nm: string; inst_adr1: string | null; inst_adr2: string | null; inst_ph: string | null };
}

const PRINT_DELAY_MS = 500;
// The toolbar stays on screen only: the printed page is the receipt alone.
const PRINT_CSS = '@media print { .no-print { display: none !important; } }';

/**
 * The printed receipt, the same at the counter and when reprinted from Fee Collected. A cancelled bill says
 * so on screen and on paper, so a reprint can never pass for a valid receipt.
 */
export function FeeReceipt({ receipt, actions, autoFocusPrint = false }: { receipt: Receipt; actions?: ReactNode; autoFocusPrint?: boolean }): JSX.Element {
  const { t } = useTranslation();
  const b = receipt.bill;
  const cancelled = b.fee_coll_sts === 'Cancelled';
  return (
    <Stack gap="sm" maw={720} data-testid="fee-receipt">
      <style>{PRINT_CSS}</style>
      <Group className="no-print" gap="xs" wrap="wrap">
        <Button leftSection={<IconPrinter size={16} />} onClick={() => setTimeout(() => window.print(), PRINT_DELAY_MS)} autoFocus={autoFocusPrint} data-testid="receipt-print">
          {t('collect.print', { defaultValue: 'Print' })}
        </Button>
        {actions}
      </Group>
      <Paper withBorder p="md">
        <Stack gap={4}>
          <Title order={4} ta="center">
            {receipt.institute.inst_nm}
          </Title>
          <Text size="sm" ta="center">
            {[receipt.institute.inst_adr1, receipt.institute.inst_adr2, receipt.institute.inst_ph].filter(Boolean).join(', ')}
          </Text>
          {cancelled && (
            <Badge color="red" size="xl" variant="outline" mx="auto" my="xs" data-testid="receipt-cancelled">
              {t('collect.cancelled', { defaultValue: 'CANCELLED' })}
            </Badge>
          )}
          <Divider my="xs" />
          <Group justify="space-between">
            <Text size="sm">
              {t('collect.bill_no', { defaultValue: 'Bill No' })}: <b>{b.fee_coll_bill_no}</b>
            </Text>
            <Text size="sm">
              {formatDate(String(b.fee_coll_crt_dt))} {formatTime(String(b.fee_coll_crt_tm ?? ''))}
            </Text>
          </Group>
          <Text size="sm">
            {String(b.stud_fs_nm)} ({String(b.stud_adm_cd)}) - {String(b.cls_nm ?? '')} {String(b.sec_nm ?? '')}
          </Text>
          <Table withTableBorder mt="xs" td={cancelled ? 'line-through' : undefined}>
            <Table.Tbody>
              {receipt.lines.map((l, i) => (
                <Table.Tr key={i}>
                  <Table.Td>
                    {l.kind === 'Late Fee' ? t('collect.late_fee', { defaultValue: 'Late Fee' }) : l.feetyp_nm} ({l.fee_grp_nm})
                  </Table.Td>
                  <Table.Td ta="right">{l.amount}</Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Td fw={700}>{t('collect.total', { defaultValue: 'Total' })}</Table.Td>
                <Table.Td ta="right" fw={700} data-testid="receipt-total">
                  {b.fee_coll_amt}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <Text size="sm">
            {t('collect.tender', { defaultValue: 'Tender Type' })}: {String(b.tnd_typ_nm ?? '')}
            {b.fee_coll_ref ? ` - ${String(b.fee_coll_ref)}` : ''}
          </Text>
          <Text size="sm">
            {t('collect.collected_by', { defaultValue: 'Collected By' })}: {String(b.fee_coll_by ?? '')}
          </Text>
        </Stack>
      </Paper>
    </Stack>
  );
}
