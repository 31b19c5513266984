import { writableFields, type AnyEntity, type Field } from '@campus/entities/define';

export interface TemplateColumn {
  name: string;
  label: string;
  required: boolean;
  hint: string;
}

function hintOf(f: Field): string {
  switch (f.kind) {
    case 'date':
      return 'Date, YYYY-MM-DD';
    case 'time':
      return 'Time, hh:mm:ss (24 hour)';
    case 'datetime':
      return 'Date and time, ISO 8601';
    case 'money':
      return 'Amount, at most 2 decimals';
    case 'number':
      return f.int ? `Whole number ${f.min} to ${f.max}` : `Number ${f.min} to ${f.max}`;
    case 'bool':
      return 'Yes/No (or 1/0)';
    case 'select':
      return `One of: ${f.options.join(', ')}`;
    case 'link':
      return `Code of a ${f.to.replace(/_/g, ' ')} record`;
    case 'text':
      return `Text, at most ${f.max} characters`;
    case 'password':
      return `Password, at least ${f.min} characters`;
    default:
      return f.kind;
  }
}

/**
 * Columns of the import template: the fields a client may write, named as the server expects them
 * (the header row of an import is field names or labels; names survive a relabel).
 */
export function templateColumns(entity: AnyEntity): TemplateColumn[] {
  return writableFields(entity)
    .filter(([, f]) => !f.formHidden && f.kind !== 'image' && f.kind !== 'file')
    .map(([name, f]) => ({ name, label: f.label, required: f.required === true, hint: hintOf(f) }));
}

export const ACCEPTED_IMPORT = ['.xlsx', '.csv'] as const;

export function isImportFile(fileName: string): boolean {
  const lower = fileName.toLowerCase();
  return ACCEPTED_IMPORT.some((ext) => lower.endsWith(ext));
}
