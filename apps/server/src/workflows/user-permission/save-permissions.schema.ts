import { z } from 'zod';

const flag = z.union([z.boolean(), z.literal(0), z.literal(1), z.literal('0'), z.literal('1')]).transform((v) => v === true || v === 1 || v === '1');

export const permissionRowSchema = z
  .object({
    usr_prms_usr_cd: z.coerce.number().int().positive().nullish(),
    upg_cd: z.coerce.number().int().positive().nullish(),
    usr_prms_mdl: z.string().max(60),
    usr_prms_page: z.string().max(60),
    usr_prms_pth_url: z.string().max(200).nullish(),
    usr_prms_is_alw: flag,
    usr_prms_btns: z.string().max(500).nullish(),
    usr_prms_dscr: z.string().max(300).nullish(),
    // 'His students only' for this row alone (the editor's per-page box); absent: the save's usrNeedDataChk.
    usr_need_data_chk: flag.optional(),
  })
  .refine((r) => !!r.usr_prms_usr_cd !== !!r.upg_cd, 'Each row names either an employee or a permission group.');

export const savePermissionsSchema = z.array(permissionRowSchema).min(1, 'Nothing to save.').max(500);

export type PermissionRowInput = z.infer<typeof permissionRowSchema>;
