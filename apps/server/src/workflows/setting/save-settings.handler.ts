import { apiUrl } from '@campus/entities/define';
import { entity } from '@campus/entities/registry';
import type { FastifyInstance } from 'fastify';
import { hasButton } from '../../access/permission';
import { mustCtx, type RequestContext } from '../../access/request-context';
import { rows, sql, type Db, type DbOrTx } from '../../db/client';
import { writeAudit } from '../../engine/audit';
import { badRequest, forbidden } from '../../lib/http-error';
import { secretSettings, settingDefaults, settingNumber, settingValue, type SettingCode } from './institute-setting';
import { parseSettings, settingLabel, settingsButton } from './save-settings.schema';

const settingEntity = entity('setting');
const profilePages = [{ module: 'institute', page: 'profile' }] as const;
const codes = Object.keys(settingDefaults) as SettingCode[];
const isSecret = (code: SettingCode): boolean => secretSettings.includes(code);
// Numbers are answered as numbers, the way the workflows read them (a stored value that is no number falls back).
const isNumber = (code: SettingCode): boolean => settingsButton.inputs?.[code.toLowerCase()]?.kind === 'number';

export type SecretState = 'set' | 'not set';

/** What the workflows use now (stored value or default); a secret only as set / not set. */
export interface InstituteSettings {
  inst_cd: number;
  settings: Record<SettingCode, string | number>;
}

async function currentSettings(db: DbOrTx, instCd: number): Promise<InstituteSettings> {
  const settings = {} as Record<SettingCode, string | number>;
  for (const code of codes) {
    if (isSecret(code)) settings[code] = (await settingValue(db, instCd, code)) === '' ? 'not set' : 'set';
    else settings[code] = isNumber(code) ? await settingNumber(db, instCd, code) : await settingValue(db, instCd, code);
  }
  return { inst_cd: instCd, settings };
}

/** The path's institute, which must be the one the request works in (the inst_cd header, checked against the user's mappings). */
function pathInstitute(ctx: RequestContext, raw: string): number {
  const instCd = Number(raw);
  if (!/^\d{1,9}$/.test(raw) || instCd <= 0) throw badRequest('The institute code must be a number.');
  if (instCd !== ctx.instCd) throw forbidden('You can change the settings of the institute you are working in only.');
  return instCd;
}

const mask = (code: SettingCode, value: string | null): string | null => (isSecret(code) && value ? '********' : value);

/**
 * Writes the typed settings in one transaction: each row is found (and locked) under the unique index on
 * (inst_cd, lower(setg_unq_cd)) and updated, or inserted. The code is stored in the workflows' own spelling,
 * so a row once saved in lower case is read again. One audit row lists the before and after, secret masked.
 */
export async function saveSettings(db: Db, ctx: RequestContext, instCd: number, values: Partial<Record<SettingCode, string>>): Promise<InstituteSettings> {
  const changed = codes.filter((c) => values[c] !== undefined);
  if (changed.length === 0) return currentSettings(db, instCd);
  return db.transaction(async (tx) => {
    const before: Record<string, string | null> = {};
    const after: Record<string, string | null> = {};
    for (const code of changed) {
      const value = values[code]!;
      const [old] = await rows<{ v: string | null }>(
        tx,
        sql`SELECT setg_val AS v FROM setting WHERE inst_cd = ${instCd} AND lower(setg_unq_cd) = lower(${code}) FOR UPDATE`,
      );
      await tx.execute(sql`
        INSERT INTO setting (inst_cd, setg_unq_cd, setg_nm, setg_val, crt_by)
        VALUES (${instCd}, ${code}, ${settingLabel(code)}, ${value}, ${ctx.user.usr_cd})
        ON CONFLICT (inst_cd, lower(setg_unq_cd)) DO UPDATE SET setg_unq_cd = EXCLUDED.setg_unq_cd, setg_val = EXCLUDED.setg_val,
          row_ver = setting.row_ver + 1, updt_dt = now(), updt_by = EXCLUDED.crt_by`);
      before[code] = mask(code, old?.v ?? null);
      after[code] = mask(code, value);
    }
    await writeAudit(tx, ctx, settingEntity, 'SETTINGS', instCd, before, after);
    return currentSettings(tx, instCd);
  });
}

export function registerSaveSettingsRoutes(app: FastifyInstance, db: Db): void {
  const tags = ['Setting'];
  const url = apiUrl(entity('institute'), ':inst_cd/settings');

  app.get(
    url,
    { config: { access: { kind: 'page', pages: profilePages } }, schema: { tags, summary: "The institute's settings as the workflows use them (the secret only as set / not set)" } },
    async (req) => {
      const ctx = mustCtx(req);
      // Readable with either button: whoever may change the settings may see what they are.
      if (!hasButton(ctx.perm ?? undefined, 'view') && !hasButton(ctx.perm ?? undefined, 'settings')) {
        throw forbidden("You do not have the 'view' permission on this page.");
      }
      return currentSettings(db, pathInstitute(ctx, (req.params as { inst_cd: string }).inst_cd));
    },
  );

  app.post(
    url,
    { config: { access: { kind: 'page', pages: profilePages, button: 'settings' } }, schema: { tags, summary: "Change the institute's settings (a blank value keeps the current one)" } },
    async (req) => {
      const ctx = mustCtx(req);
      const instCd = pathInstitute(ctx, (req.params as { inst_cd: string }).inst_cd);
      return saveSettings(db, ctx, instCd, parseSettings(req.body));
    },
  );
}
