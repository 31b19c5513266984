import type { LinkField } from '@campus/entities/define';
import { findEntity } from '@campus/entities/registry';
import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../lib/http-client';
import { entityUrl, type LinkOption } from './entity-api';

export interface LinkSelectProps {
  name: string;
  field: LinkField;
  value: string | null;
  onChange: (value: string | null) => void;
  /** Label of the current value when the caller already has it (the row's joined `as` column). */
  knownLabel?: string;
  error?: string;
  disabled?: boolean;
  /** The label shown (translated by the form); the declared label when not given. */
  label?: string;
  /**
   * A dependent link (`within`): the chosen partner values by target field ({ cls_cd: '12' }). Only the
   * rows matching them are offered (the server filters); the ids lookup sends them too, so a chosen
   * section is named 'A' beside its class rather than 'VI - A'.
   */
  partners?: Readonly<Record<string, string>>;
  /** Label of the partner still to be chosen: the dropdown waits ('Choose the Class first'). */
  waitingFor?: string | null;
}

const SEARCH_DEBOUNCE_MS = 300;

/**
 * Searchable dropdown of another entity's rows. Options come from GET {target}options?q= (the server
 * filters and caps at 50), so the dropdown never loads a whole table; the current value's label is
 * fetched with ?ids= when the row did not bring it along.
 */
export function LinkSelect({ name, field, value, onChange, knownLabel, error, disabled, label = field.label, partners, waitingFor }: LinkSelectProps) {
  const { t } = useTranslation();
  const target = findEntity(field.to);
  const within = useMemo(() => Object.fromEntries(Object.entries(partners ?? {}).map(([k, v]) => [`f_${k}`, v])), [partners]);
  const withinKey = JSON.stringify(within);
  const waiting = !!waitingFor;
  const optionsUrl = target ? entityUrl(target, 'options') : null;
  const [opened, setOpened] = useState(false);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);

  const current = useQuery({
    queryKey: ['link-options', field.to, 'ids', value, withinKey],
    queryFn: ({ signal }) => http.get<LinkOption[]>(optionsUrl ?? '', { query: { ids: value ?? '', ...within }, signal }),
    enabled: !!optionsUrl && !!value && !knownLabel,
    staleTime: 60_000,
  });
  const currentLabel = knownLabel ?? current.data?.find((o) => String(o.value) === value)?.label;

  // While the box shows the chosen label the user has not searched for anything yet.
  const q = debounced === currentLabel ? '' : debounced;
  const options = useQuery({
    queryKey: ['link-options', field.to, 'q', q, withinKey],
    queryFn: ({ signal }) => http.get<LinkOption[]>(optionsUrl ?? '', { query: { q: q || undefined, ...within }, signal }),
    enabled: !!optionsUrl && opened && !waiting,
    staleTime: 30_000,
  });

  const data = useMemo(() => {
    const seen = new Set<string>();
    const out: { value: string; label: string }[] = [];
    const add = (v: string, label: string) => {
      if (seen.has(v)) return;
      seen.add(v);
      out.push({ value: v, label });
    };
    if (value && currentLabel) add(value, currentLabel);
    for (const o of options.data ?? []) add(String(o.value), o.label);
    // An unknown current value still needs an option, or Select would show an empty box.
    if (value && !seen.has(value)) add(value, `#${value}`);
    return out;
  }, [options.data, value, currentLabel]);

  return (
    <Select
      id={name}
      name={name}
      label={label}
      placeholder={
        waitingFor
          ? t('form.choose_first', { label: waitingFor, defaultValue: 'Choose the {{label}} first' })
          : (field.placeholder ?? t('form.select_label', { label, defaultValue: 'Select {{label}}' }))
      }
      withAsterisk={field.required}
      data={data}
      value={value}
      onChange={(v) => onChange(v)}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server already filtered by q; filtering again here would hide rows matched on other columns.
      filter={({ options: o }) => o}
      clearable={!field.required}
      nothingFoundMessage={options.isFetching ? t('form.loading', { defaultValue: 'Loading…' }) : t('form.no_options', { defaultValue: 'Nothing found' })}
      rightSection={options.isFetching || current.isFetching ? <Loader size={14} /> : undefined}
      onDropdownOpen={() => setOpened(true)}
      error={error}
      disabled={disabled || waiting}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
