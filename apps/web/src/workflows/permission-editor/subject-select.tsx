import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState, type Ref } from 'react';
import { http } from '../../lib/http-client';

interface Option {
  value: string | number;
  label: string;
}

interface SubjectSelectProps {
  /** Entity API root, e.g. /api/employee/; options come from {api}options?q=&ids= (docs/api-contract.md). */
  api: string;
  label: string;
  placeholder: string;
  value: number | null;
  onChange: (value: number | null) => void;
  disabled?: boolean;
  required?: boolean;
  name: string;
  inputRef?: Ref<HTMLInputElement>;
}

/** A dropdown searched on the server: institutes can have thousands of employees. */
export function SubjectSelect({ api, label, placeholder, value, onChange, disabled, required, name, inputRef }: SubjectSelectProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const options = useQuery({
    queryKey: ['options', api, debounced],
    queryFn: ({ signal }) => http.get<Option[]>(`${api}options`, { signal, query: { q: debounced || undefined } }),
    staleTime: 60_000,
  });
  // The chosen subject may be outside the first 50 matches: fetch its label by id.
  const chosen = useQuery({
    queryKey: ['options', api, 'ids', value],
    enabled: value !== null,
    queryFn: ({ signal }) => http.get<Option[]>(`${api}options`, { signal, query: { ids: value ?? undefined } }),
    staleTime: 60_000,
  });

  const merged = new Map<string, string>();
  for (const o of [...(chosen.data ?? []), ...(options.data ?? [])]) merged.set(String(o.value), o.label);
  const data = Array.from(merged, ([v, l]) => ({ value: v, label: l }));

  return (
    <Select
      ref={inputRef}
      name={name}
      label={label}
      placeholder={placeholder}
      required={required}
      disabled={disabled}
      searchable
      clearable={!disabled}
      data={data}
      value={value === null ? null : String(value)}
      onChange={(v) => onChange(v === null ? null : Number(v))}
      onSearchChange={setSearch}
      // The server has filtered already; a second filter here would hide its fuzzy matches.
      filter={({ options: o }) => o}
      nothingFoundMessage={options.isFetching ? undefined : '—'}
      rightSection={options.isFetching ? <Loader size={14} /> : undefined}
      maxDropdownHeight={280}
    />
  );
}
