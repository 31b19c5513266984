import { code, defineEntity, link } from '../define';

/** Subject mapping: who teaches which subject to which section this academic year. */
export const subjectDetail = defineEntity({
  name: 'subject_detail',
  // The spec's list call, camel case included.
  api: '/api/subjectDetail/',
  table: 'subject_detail',
  key: 'sub_dtl_cd',
  scope: 'academic-year',
  label: 'Subject Mapping',
  // No name of its own; nothing links to a mapping, so the code is enough for messages.
  title: 'sub_dtl_cd',
  fields: {
    sub_dtl_cd: code(),
    cls_cd: link({ label: 'Class', to: 'class', display: 'cls_nm', as: 'cls_nm', required: true, search: true }),
    sec_cd: link({ label: 'Section', to: 'section', display: 'sec_nm', as: 'sec_nm', required: true, search: true, within: { cls_cd: 'cls_cd' } }),
    sub_cd: link({ label: 'Subject', to: 'subject', display: 'sub_nm', as: 'sub_nm', required: true, search: true }),
    // Optional: a subject is mapped to a section before its teacher is appointed.
    usr_cd: link({ label: 'Teacher', to: 'employee', display: 'usr_full_nm', as: 'usr_full_nm', search: true }),
  },
  uniqueTogether: [{ fields: ['sec_cd', 'sub_cd'], message: 'This subject is already mapped to this section.' }],
  // Groups the mappings of one class together.
  defaultSort: { field: 'cls_cd', dir: 'asc' },
});
