import { findEntity } from '@campus/entities/registry';
import { describe, expect, it } from 'vitest';
import { draftOf, ruleParts } from './rule-draft';

describe('notification rule drafts', () => {
  it('turns typed conditions into the values the server checks, and reads them back', () => {
    const student = findEntity('student');
    const parts = ruleParts(
      {
        entity: 'student',
        columns: ['stud_fs_nm'],
        where: [
          { field: 'cls_cd', op: 'in', value: '12, 14' },
          { field: 'stud_fs_nm', op: 'contains', value: ' Ra ' },
          { field: 'stud_dob', op: 'is_null', value: 'ignored' },
          { field: '', op: 'eq', value: 'unfinished row' },
        ],
        dateField: 'stud_doj',
        from: 0,
        to: 3,
        group: [],
        order: { field: 'stud_fs_nm', dir: 'desc' },
        limit: 20,
      },
      student,
    );
    expect(parts).toEqual({
      ntf_qry: { entity: 'student', columns: ['stud_fs_nm'] },
      ntf_dt_fltr: { field: 'stud_doj', from: 0, to: 3 },
      ntf_qry_whr_clmn: [
        { field: 'cls_cd', op: 'in', value: [12, 14] },
        { field: 'stud_fs_nm', op: 'contains', value: 'Ra' },
        { field: 'stud_dob', op: 'is_null' },
      ],
      ntf_qry_lmt_clmn: 20,
      ntf_qry_ord_clmn: [{ field: 'stud_fs_nm', dir: 'desc' }],
      ntf_qry_grp_clmn: [],
    });
    const back = draftOf({ ...parts, ntf_qry: JSON.stringify(parts.ntf_qry) });
    expect(back.where[0]).toEqual({ field: 'cls_cd', op: 'in', value: '12, 14' });
    expect(back.dateField).toBe('stud_doj');
    expect(back.to).toBe(3);
    expect(back.order).toEqual({ field: 'stud_fs_nm', dir: 'desc' });
    expect(back.limit).toBe(20);
  });
});
