import type { Fixture } from './student-workflow-fixture';

/**
 * An exam of the fixture's section A and one of section B, each with Maths (out of 100, pass 35) and
 * Science (out of 50, pass 18), made through the API like the exam office would.
 */
export interface ExamFixture {
  examA: number;
  examB: number;
  maths: number;
  science: number;
  /** Mark rows (exam-subject) by exam: [maths, science]. */
  marksA: [number, number];
  marksB: [number, number];
}

export async function makeExams(f: Fixture, tag: string): Promise<ExamFixture> {
  const page = (p: string) => f.as(f.admin, 'exam', p);
  const typ = await f.created(page('examtype'), '/api/examtype/', { exmtyp_nm: `Quarterly ${tag}`, exmtyp_sts: 'Draft' }, 'exmtyp_cd');
  const exam = (sec: number, name: string) =>
    f.created(page('exam'), '/api/exam/', { exm_nm: `${name} ${tag}`, exmtyp_cd: typ, cls_cd: f.cls1, sec_cd: sec, exm_strt_dt: '2025-09-15', exm_end_dt: '2025-09-20' }, 'exm_cd');
  const examA = await exam(f.secA, 'Quarterly A');
  const examB = await exam(f.secB, 'Quarterly B');
  const subject = f.as(f.admin, 'subject', 'subject');
  // Created Maths first: the mark list's columns follow the subjects' order.
  const maths = await f.created(subject, '/api/subject/', { sub_nm: `Maths ${tag}` }, 'sub_cd');
  const science = await f.created(subject, '/api/subject/', { sub_nm: `Science ${tag}` }, 'sub_cd');
  const rowsOf = async (exm: number): Promise<[number, number]> => [
    await f.created(page('mark'), '/api/mark/', { exm_cd: exm, sub_cd: maths, mrk_max_mrk: 100, mrk_min_mrk: 35 }, 'mrk_cd'),
    await f.created(page('mark'), '/api/mark/', { exm_cd: exm, sub_cd: science, mrk_max_mrk: 50, mrk_min_mrk: 18 }, 'mrk_cd'),
  ];
  return { examA, examB, maths, science, marksA: await rowsOf(examA), marksB: await rowsOf(examB) };
}
