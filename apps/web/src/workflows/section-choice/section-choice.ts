/** A section as the workflow screens' pickers get it from {api}sections (the user's own under data_chk). */
export interface SectionChoice {
  sec_cd: number;
  sec_nm: string;
  cls_cd: number;
  cls_nm: string;
}

export interface Choice {
  value: string;
  label: string;
}

/** The classes that have at least one offered section, in the server's (class order) order, once each. */
export function classChoices(sections: readonly SectionChoice[]): Choice[] {
  const seen = new Set<number>();
  const out: Choice[] = [];
  for (const s of sections) {
    if (seen.has(s.cls_cd)) continue;
    seen.add(s.cls_cd);
    out.push({ value: String(s.cls_cd), label: s.cls_nm });
  }
  return out;
}

/** The sections of one class (none before a class is chosen), leaving out `except` (a move's from-section). */
export function sectionChoicesOf(sections: readonly SectionChoice[], clsCd: string | null, except?: string | null): Choice[] {
  if (!clsCd) return [];
  return sections.filter((s) => String(s.cls_cd) === clsCd && String(s.sec_cd) !== except).map((s) => ({ value: String(s.sec_cd), label: s.sec_nm }));
}

/** A single section of the class is chosen for the user; otherwise the choice is kept only if still offered. */
export function keepOrOnly(choices: readonly Choice[], current: string | null): string | null {
  if (current && choices.some((c) => c.value === current)) return current;
  return choices.length === 1 ? choices[0].value : null;
}
