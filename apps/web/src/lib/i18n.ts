import dayjs from 'dayjs';
import 'dayjs/locale/ta';
import i18next, { type BackendModule, type ReadCallback } from 'i18next';
import { useSyncExternalStore } from 'react';
import { initReactI18next } from 'react-i18next';
import { getSession, subscribeSession } from './session-store';

/** Languages a user can pick; each has a '_clg' file for college institutes (spec section 1). */
export const languageOptions = [
  { value: 'english', label: 'English', locale: 'en' },
  { value: 'tamil', label: 'தமிழ்', locale: 'ta' },
] as const;

export type Language = (typeof languageOptions)[number]['value'];

export const DEFAULT_LANGUAGE: Language = 'english';
const LANGUAGE_KEY = 'campus.language';

export function isLanguage(v: unknown): v is Language {
  return languageOptions.some((o) => o.value === v);
}

/** The file to load: 'tamil' + college institute -> 'tamil_clg' (spec section 9). */
export function languageFileName(language: Language, instTyp: string | null | undefined): string {
  return instTyp === 'college' ? `${language}_clg` : language;
}

/** dayjs / html lang locale of a language file name ('tamil_clg' -> 'ta'). */
export function localeOf(fileName: string): string {
  const base = fileName.replace(/_clg$/, '');
  return languageOptions.find((o) => o.value === base)?.locale ?? 'en';
}

/** URL of a language file: ./assets/language/{name}.json from the app's base, whatever the route depth. */
export function languageFileUrl(fileName: string): string {
  return `${import.meta.env.BASE_URL}assets/language/${encodeURIComponent(fileName)}.json`;
}

/**
 * Plain fetch, not the HTTP client: a language file is static, needs none of the contract headers, and must
 * not be cancelled by the navigation that often triggers it.
 */
const fetchBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, _namespace: string, callback: ReadCallback) {
    fetch(languageFileUrl(language), { headers: { accept: 'application/json' } })
      .then(async (res) => {
        if (!res.ok) throw new Error(`Language file ${language}: HTTP ${res.status}`);
        callback(null, (await res.json()) as Record<string, unknown>);
      })
      .catch((e: unknown) => callback(e instanceof Error ? e : new Error(String(e)), false));
  },
};

function storedLanguage(): Language {
  try {
    const v = localStorage.getItem(LANGUAGE_KEY);
    return isLanguage(v) ? v : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

let language: Language = storedLanguage();
const listeners = new Set<() => void>();

function currentFileName(): string {
  return languageFileName(language, getSession().institute?.inst_typ);
}

function applyLocale(fileName: string): void {
  const locale = localeOf(fileName);
  dayjs.locale(locale);
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}

let initPromise: Promise<void> | null = null;

export function initI18n(): Promise<void> {
  if (initPromise) return initPromise;
  const first = currentFileName();
  applyLocale(first);
  initPromise = i18next
    .use(fetchBackend)
    .use(initReactI18next)
    .init({
      lng: first,
      fallbackLng: DEFAULT_LANGUAGE,
      // File names are not BCP 47 tags: never try 'tamil_clg' -> 'tamil' on its own.
      load: 'currentOnly',
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: false },
    })
    .then(() => undefined)
    .catch(() => undefined);

  // The institute type decides the _clg variant, so follow institute switches.
  subscribeSession(() => {
    const wanted = currentFileName();
    if (i18next.language !== wanted) void changeFile(wanted);
  });
  return initPromise;
}

async function changeFile(fileName: string): Promise<void> {
  applyLocale(fileName);
  await i18next.changeLanguage(fileName);
}

export function setLanguage(next: Language): void {
  if (next === language) return;
  language = next;
  try {
    localStorage.setItem(LANGUAGE_KEY, next);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  for (const l of listeners) l();
  void changeFile(currentFileName());
}

export function getLanguage(): Language {
  return language;
}

export function useLanguage(): Language {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    getLanguage,
    getLanguage,
  );
}
