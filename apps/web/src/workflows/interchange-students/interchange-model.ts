export interface MovableStudent {
  stud_cd: number;
  stud_fs_nm: string;
  stud_adm_cd: string;
  stud_roll_nmb: number | null;
}

/** Students whose name, admission number or roll number contains the search text (case-insensitive). */
export function filterStudents(list: readonly MovableStudent[], search: string): MovableStudent[] {
  const q = search.trim().toLowerCase();
  if (!q) return [...list];
  return list.filter((s) => s.stud_fs_nm.toLowerCase().includes(q) || s.stud_adm_cd.toLowerCase().includes(q) || String(s.stud_roll_nmb ?? '') === q);
}

export function toggle(selected: ReadonlySet<number>, studCd: number): Set<number> {
  const next = new Set(selected);
  if (next.has(studCd)) next.delete(studCd);
  else next.add(studCd);
  return next;
}

/** Ticks (or unticks) every shown student; the ones hidden by the search keep their state. */
export function toggleShown(selected: ReadonlySet<number>, shown: readonly MovableStudent[], on: boolean): Set<number> {
  const next = new Set(selected);
  for (const s of shown) {
    if (on) next.add(s.stud_cd);
    else next.delete(s.stud_cd);
  }
  return next;
}

/** Only students still in the from-section may be sent (the list may have changed since they were ticked). */
export function selectedIn(selected: ReadonlySet<number>, list: readonly MovableStudent[]): number[] {
  return list.filter((s) => selected.has(s.stud_cd)).map((s) => s.stud_cd);
}
