import { Select, type SelectProps } from '@mantine/core';
import { IconBuilding, IconCalendar, IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { languageOptions, setLanguage, useLanguage, isLanguage } from '../lib/i18n';
import { useSession } from '../lib/session-store';
import { useAcademicYears } from './use-academic-years';

type Common = Pick<SelectProps, 'size' | 'w' | 'label' | 'variant' | 'comboboxProps' | 'visibleFrom'>;

/** The institutes the user is mapped to; switching re-fetches the years (spec section 2 header). */
export function InstituteSwitcher(props: Common) {
  const { t } = useTranslation();
  const { user, institute, setInstitute } = useSession();
  const institutes = user?.institutes ?? [];
  return (
    <Select
      aria-label={t('common.institute', { defaultValue: 'Institute' })}
      placeholder={t('common.select_institute', { defaultValue: 'Select institute' })}
      leftSection={<IconBuilding size={16} />}
      data={institutes.map((i) => ({ value: String(i.inst_cd), label: i.inst_nm }))}
      value={institute ? String(institute.inst_cd) : null}
      onChange={(v) => {
        const next = institutes.find((i) => String(i.inst_cd) === v);
        if (next) setInstitute(next);
      }}
      allowDeselect={false}
      searchable={institutes.length > 6}
      // One institute: nothing to switch, but the name stays readable rather than greyed out.
      readOnly={institutes.length <= 1}
      rightSection={institutes.length <= 1 ? <span /> : undefined}
      {...props}
    />
  );
}

/** Active academic years of the institute, shown by label 'YYYY-YY'. */
export function YearSwitcher(props: Common) {
  const { t } = useTranslation();
  const { year, setAcademicYear } = useSession();
  const { years, isLoading } = useAcademicYears();
  return (
    <Select
      aria-label={t('common.academic_year', { defaultValue: 'Academic Year' })}
      placeholder={isLoading ? t('common.loading', { defaultValue: 'Loading...' }) : t('common.no_year', { defaultValue: 'No active academic year' })}
      leftSection={<IconCalendar size={16} />}
      data={years.map((y) => ({ value: String(y.acdm_cd), label: y.label }))}
      value={year ? String(year.acdm_cd) : null}
      onChange={(v) => {
        const next = years.find((y) => String(y.acdm_cd) === v);
        if (next) setAcademicYear(next);
      }}
      allowDeselect={false}
      {...props}
    />
  );
}

export function LanguageSwitcher(props: Common) {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <Select
      aria-label={t('common.language', { defaultValue: 'Language' })}
      leftSection={<IconLanguage size={16} />}
      data={languageOptions.map((o) => ({ value: o.value, label: o.label }))}
      value={language}
      onChange={(v) => {
        if (isLanguage(v)) setLanguage(v);
      }}
      allowDeselect={false}
      {...props}
    />
  );
}
