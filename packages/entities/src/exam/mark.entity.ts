import { code, defineEntity, link, number } from '../define';

/** The maximum and pass marks of one subject in one exam. */
export const mark = defineEntity({
  name: 'mark',
  table: 'mark',
  key: 'mrk_cd',
  scope: 'academic-year',
  label: 'Mark',
  // No name of its own; nothing links to a mark, so the code is enough for messages.
  title: 'mrk_cd',
  fields: {
    mrk_cd: code(),
    exm_cd: link({ label: 'Exam', to: 'exam', display: 'exm_nm', as: 'exm_nm', required: true, search: true }),
    sub_cd: link({ label: 'Subject', to: 'subject', display: 'sub_nm', as: 'sub_nm', required: true, search: true }),
    // Whole marks: mark sheets are written without fractions.
    mrk_max_mrk: number({ label: 'Maximum Mark', required: true, min: 1, max: 1000 }),
    mrk_min_mrk: number({ label: 'Pass Mark', required: true, min: 0, max: 1000, notAbove: 'mrk_max_mrk' }),
  },
  uniqueTogether: [{ fields: ['exm_cd', 'sub_cd'], message: 'This exam already has marks for this subject.' }],
  // Keeps the subjects of one exam together.
  defaultSort: { field: 'exm_cd', dir: 'asc' },
});
