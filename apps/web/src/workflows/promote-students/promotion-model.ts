import type { SectionChoice } from '../section-choice/section-choice';

export interface YearChoice {
  acdm_cd: number;
  acdm_strt_yr: number;
  acdm_end_yr: number;
  acdm_sts: boolean;
  label: string;
}

export interface PromotionChoices {
  years: YearChoice[];
  current_acdm_cd: number | null;
  /** The institute's sections in class order (the server's cls_odr), then by name. */
  sections: SectionChoice[];
}

export interface PlanStudent {
  stud_cd: number;
  stud_fs_nm: string;
  stud_adm_cd: string;
  stud_roll_nmb: number | null;
}

export interface PlanSection {
  sec_cd: number;
  sec_nm: string;
  cls_cd: number;
  cls_nm: string;
}

export interface PreviewMove {
  from: PlanSection;
  to: PlanSection;
  moving: (PlanStudent & { new_roll: number | null })[];
  already: (PlanStudent & { there_cls_nm: string; there_sec_nm: string })[];
  held: PlanStudent[];
}

export interface PromotionPreview {
  from: YearChoice;
  to: YearChoice;
  moves: PreviewMove[];
  leaving: { section: PlanSection; students: PlanStudent[] }[];
}

export interface PromotionResult {
  frm_acdm: string;
  to_acdm: string;
  promotions: { prmtn_cd: number; from: string; to: string; prmtn_stud_cnt: number }[];
  skipped: number;
  held_back: number;
  carried: { stud_fs_nm: string; amount: string }[];
}

/** The year that follows `from` (the next start year), the usual target; null when it is not opened yet. */
export function nextYearOf(years: readonly YearChoice[], from: number | null): YearChoice | null {
  const f = years.find((y) => y.acdm_cd === from);
  if (!f) return null;
  return [...years].filter((y) => y.acdm_strt_yr > f.acdm_strt_yr).sort((a, b) => a.acdm_strt_yr - b.acdm_strt_yr)[0] ?? null;
}

/**
 * Where a section usually goes: the section of the same name in the next class (VI A to VII A), else the next
 * class's first section; none for the last class (its children leave).
 */
export function defaultTarget(sections: readonly SectionChoice[], from: SectionChoice): number | null {
  const classes: number[] = [];
  for (const s of sections) if (!classes.includes(s.cls_cd)) classes.push(s.cls_cd);
  const next = classes[classes.indexOf(from.cls_cd) + 1];
  if (next === undefined) return null;
  const of = sections.filter((s) => s.cls_cd === next);
  return (of.find((s) => s.sec_nm.trim().toLowerCase() === from.sec_nm.trim().toLowerCase()) ?? of[0])?.sec_cd ?? null;
}

export const sectionLabel = (s: Pick<PlanSection, 'cls_nm' | 'sec_nm'>): string => `${s.cls_nm} ${s.sec_nm}`;

/** The run's moves: each previewed section with the children still ticked (the unticked are held back). */
export function movesToRun(preview: PromotionPreview, heldBack: ReadonlySet<number>): { frm_sec_cd: number; to_sec_cd: number; stud_cds: number[] }[] {
  return preview.moves
    .map((m) => ({ frm_sec_cd: m.from.sec_cd, to_sec_cd: m.to.sec_cd, stud_cds: m.moving.map((s) => s.stud_cd).filter((id) => !heldBack.has(id)) }))
    .filter((m) => m.stud_cds.length > 0);
}
