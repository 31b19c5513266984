import { Button, Group, Skeleton } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { parseMode } from '../../engine/entity-mode';
import { http } from '../../lib/http-client';
import { CollectFeePage } from './collect-fee-page';
import { FeeReceipt, type Receipt } from './fee-receipt';

/** The row id of a view-mode path (sms/:module/:page/view/:id); the engine has checked its shape. */
function useViewId(): number | null {
  const mode = parseMode(useParams()['*']);
  return mode?.kind === 'view' ? Number(mode.id) : null;
}

/** Quick fee collection, view mode of a student finder row: the counter opened on that student. */
export function CollectFromStudentPage(): JSX.Element {
  const id = useViewId();
  return id === null ? <BackOnly to="/sms/fee/quick_fee_collection/table" /> : <CollectFeePage key={id} student={id} />;
}

interface AcademicDueRow {
  acdm_fee_stud_cd: number;
  acdm_fee_acdm_cd: number;
  acdm_label: string;
}

const ACADEMIC_LIST = '/sms/fee/academic_fee_collect/table';

/**
 * Academic fee collect, view mode of a row (the earlier year's student): the counter for that student in
 * THAT year, since the balance belongs to that year's receipt book. The row itself is read under the current
 * year, which is the year the list is of.
 */
export function CollectAcademicDuesPage(): JSX.Element {
  const id = useViewId();
  const row = useQuery({
    queryKey: ['collect-fee', 'academic-row', id],
    queryFn: () => http.get<AcademicDueRow>(`/api/academic_fee_collect/${id}`),
    enabled: id !== null,
  });
  if (!row.data) return row.isError ? <BackOnly to={ACADEMIC_LIST} /> : <Skeleton height={320} radius="md" />;
  const r = row.data;
  return <CollectFeePage key={r.acdm_fee_stud_cd} student={Number(r.acdm_fee_stud_cd)} year={{ acdm_cd: Number(r.acdm_fee_acdm_cd), label: r.acdm_label }} back={ACADEMIC_LIST} />;
}

const BILLS_LIST = '/sms/fee/fee_collected/table';

/** Fee Collected, view mode of a bill: its receipt to reprint, the same one the counter printed. */
export function BillReceiptPage(): JSX.Element {
  const id = useViewId();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const bill = useQuery({
    queryKey: ['collect-fee', 'bill', id],
    queryFn: () => http.get<Receipt>(`/api/fee_collection/bill/${id}`),
    enabled: id !== null,
  });
  if (!bill.data) return bill.isError ? <BackOnly to={BILLS_LIST} /> : <Skeleton height={320} radius="md" />;
  return (
    <FeeReceipt
      receipt={bill.data}
      actions={
        <Button variant="light" leftSection={<IconArrowLeft size={16} />} onClick={() => navigate(BILLS_LIST)} data-testid="receipt-back">
          {t('collect.back_to_list', { defaultValue: 'Back to the list' })}
        </Button>
      }
    />
  );
}

/** After a refused read (the client has toasted why): the way back to the list. */
function BackOnly({ to }: { to: string }): JSX.Element {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Group>
      <Button variant="light" leftSection={<IconArrowLeft size={16} />} onClick={() => navigate(to)}>
        {t('collect.back_to_list', { defaultValue: 'Back to the list' })}
      </Button>
    </Group>
  );
}
