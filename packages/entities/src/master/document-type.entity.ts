import { code, defineEntity, select, text } from '../define';

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
    // Who hands the document in; one document (an ID card, say) may come from several kinds of people.
    doc_typ_for: select({ label: 'Collected From', options: ['Student', 'Employee', 'Institute'], multiple: true }),
    doc_typ_dscr: text({ label: 'Description', multiline: true, max: 500 }),
  },
  defaultSort: { field: 'doc_typ_nm', dir: 'asc' },
});
