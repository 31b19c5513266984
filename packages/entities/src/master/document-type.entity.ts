import { code, defineEntity, text } from '../define';

export const documentType = defineEntity({
  name: 'document_type',
  table: 'document_type',
  key: 'doc_typ_cd',
  scope: 'institute',
  label: 'Document Type',
  title: 'doc_typ_nm',
  fields: {
    doc_typ_cd: code(),
    doc_typ_nm: text({ label: 'Document Type Name', required: true, search: true, unique: true, max: 100 }),
    doc_typ_dscr: text({ label: 'Description', multiline: true, max: 500 }),
  },
  defaultSort: { field: 'doc_typ_nm', dir: 'asc' },
});
