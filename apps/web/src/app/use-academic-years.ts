import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { academicLabel } from '../lib/academic-label';
import { http } from '../lib/http-client';
import { useSession, type AcademicYearRef } from '../lib/session-store';
import { ACADEMIC_YEARS_KEY } from './query-client';

interface AcademicYearRow {
  acdm_cd: number;
  label?: string | null;
  acdm_strt_yr?: number | string | null;
}

function toRef(row: AcademicYearRow): AcademicYearRef {
  const start = Number(row.acdm_strt_yr);
  return { acdm_cd: row.acdm_cd, label: row.label || (Number.isFinite(start) ? academicLabel(start) : String(row.acdm_cd)) };
}

export interface AcademicYearsState {
  years: AcademicYearRef[];
  isLoading: boolean;
  isError: boolean;
  /** Pages may render: a year is chosen, or the institute has none to choose. */
  ready: boolean;
}

/** The active years query of a user and institute: the shell's and the start of a visit's (list-route-prefetch.ts). */
export function academicYearsQuery(usrCd: number | null, instCd: number | null) {
  return {
    queryKey: [ACADEMIC_YEARS_KEY, usrCd, instCd],
    staleTime: 5 * 60_000,
    // The year outlives every page: aborted, it would leave later requests with an empty acdm_cd.
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      http.get<AcademicYearRow[] | { rows: AcademicYearRow[] }>('/api/academic/active', { signal, keepOnNavigation: true }),
  };
}

export function yearRefs(data: AcademicYearRow[] | { rows: AcademicYearRow[] } | undefined): AcademicYearRef[] {
  const rows = Array.isArray(data) ? data : (data?.rows ?? []);
  return rows.map(toRef);
}

/** The year to work in: the chosen one while it is still active (with its current label), else the newest. */
export function validYear(years: readonly AcademicYearRef[], year: AcademicYearRef | null): AcademicYearRef | null {
  const current = year ? years.find((y) => y.acdm_cd === year.acdm_cd) : undefined;
  return current ?? years[0] ?? null;
}

/**
 * The active years of the current institute (GET /api/academic/active, newest first). Keeps the chosen
 * year valid: none chosen or one of another institute -> the newest.
 */
export function useAcademicYears(): AcademicYearsState {
  const { user, institute, year, setAcademicYear } = useSession();
  const query = useQuery({ ...academicYearsQuery(user?.usr_cd ?? null, institute?.inst_cd ?? null), enabled: !!user && !!institute });

  const years = useMemo(() => yearRefs(query.data), [query.data]);

  useEffect(() => {
    if (query.isSuccess) setAcademicYear(validYear(years, year));
  }, [query.isSuccess, years, year, setAcademicYear]);

  return {
    years,
    isLoading: query.isPending && query.fetchStatus !== 'idle',
    isError: query.isError,
    ready: year !== null || (query.isSuccess && years.length === 0) || query.isError,
  };
}
