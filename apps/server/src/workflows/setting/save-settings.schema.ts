import { workflowInputSchema, type WorkflowButton } from '@campus/entities/define';
import { entity } from '@campus/entities/registry';
import { badRequest } from '../../lib/http-error';
import { settingDefaults, type SettingCode } from './institute-setting';

/** The institute page's Settings button: its inputs are the setting codes in lower case. */
export const settingsButton: WorkflowButton = (() => {
  const b = entity('institute').workflowButtons?.find((x) => x.button === 'settings');
  if (!b) throw new Error('institute declares no settings button');
  return b;
})();

const codes = Object.keys(settingDefaults) as SettingCode[];
const inputOf = (code: SettingCode): string => code.toLowerCase();

// Every setting the workflows read must be settable, and the dialog may ask nothing the server cannot store.
{
  const declared = Object.keys(settingsButton.inputs ?? {}).sort();
  const expected = codes.map(inputOf).sort();
  if (declared.join() !== expected.join()) throw new Error(`institute settings button asks ${declared.join()}, the settings are ${expected.join()}`);
}

/** The label the dialog shows for a setting: also the stored row's name and the wording of refusals. */
export const settingLabel = (code: SettingCode): string => settingsButton.inputs?.[inputOf(code)]?.label ?? code;

const inputSchema = workflowInputSchema(settingsButton);

// Literal text of letters, digits, / - _ and the three parts the admission numbering knows.
const PATTERN_PARTS = /^(?:[A-Za-z0-9/_-]|\{YYYY\}|\{YY\}|\{#+\})+$/;
const NUMBER_PART = /\{(#+)\}/g;
export const SECRET_MIN = 16;

function refuse(code: SettingCode, message: string): never {
  throw badRequest(message, [{ field: inputOf(code), message }]);
}

/**
 * Why a pattern cannot number admissions, or null. Stricter than the admission workflow's own reading (which
 * only needs one number part), so a saved pattern always makes distinct, readable numbers.
 */
export function patternProblem(pattern: string): string | null {
  const label = settingLabel('ADMN_NO_PTRN');
  if (!PATTERN_PARTS.test(pattern)) return `'${label}' may hold only letters, digits, / - _ and the parts {YYYY}, {YY} and {#####}.`;
  const numbers = [...pattern.matchAll(NUMBER_PART)];
  if (numbers.length !== 1 || numbers[0][1].length < 3 || numbers[0][1].length > 9) {
    return `'${label}' needs exactly one number part of 3 to 9 # in braces, such as {#####}.`;
  }
  return null;
}

/**
 * The settings to write: code -> value, only those typed in (a blank input keeps the stored value). A wrong
 * value is a 400 naming the setting, before anything is written.
 */
export function parseSettings(body: unknown): Partial<Record<SettingCode, string>> {
  const parsed = inputSchema.safeParse(body ?? {});
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => ({ field: String(i.path[0] ?? ''), message: i.message }));
    throw badRequest(details[0]?.message ?? 'Invalid settings.', details);
  }
  const data = parsed.data as Record<string, string | number | null>;
  const out: Partial<Record<SettingCode, string>> = {};
  for (const code of codes) {
    const v = data[inputOf(code)];
    if (v !== null && v !== undefined && String(v).trim() !== '') out[code] = String(v).trim();
  }
  const pattern = out.ADMN_NO_PTRN;
  const problem = pattern === undefined ? null : patternProblem(pattern);
  if (problem) refuse('ADMN_NO_PTRN', problem);
  const secret = out.PAY_WEBHOOK_SECRET;
  if (secret !== undefined && secret.length < SECRET_MIN) {
    refuse('PAY_WEBHOOK_SECRET', `'${settingLabel('PAY_WEBHOOK_SECRET')}' must be at least ${SECRET_MIN} characters.`);
  }
  return out;
}
