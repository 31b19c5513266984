import { dictionary } from '@zxcvbn-ts/language-common';

/** Shortest password accepted (issue 11). The entity's password field says the same to the form. */
export const PASSWORD_MIN = 10;
const COMMON_COUNT = 10_000;

export const PASSWORD_TOO_SHORT = `The password must have at least ${PASSWORD_MIN} characters.`;
export const PASSWORD_TOO_COMMON = 'This password is one of the 10,000 most common passwords. Please choose another.';
export const PASSWORD_IS_LOGIN_ID = 'The password must not be the login id.';

let common: Set<string> | undefined;

/**
 * The 10,000 most common passwords, from zxcvbn-ts's maintained list (ranked by how often they appear in
 * leaked password sets; its first 10,000), compared without case: 'Password1' is as guessable as 'password1'.
 * Built on first use: the list is 49,000 words and most requests never set a password.
 */
function commonPasswords(): Set<string> {
  common ??= new Set(dictionary['passwords-common'].slice(0, COMMON_COUNT).map((p) => p.toLowerCase()));
  return common;
}

/** Why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: string, loginId?: string | null): string | null {
  if ([...password].length < PASSWORD_MIN) return PASSWORD_TOO_SHORT;
  const lower = password.toLowerCase();
  if (commonPasswords().has(lower)) return PASSWORD_TOO_COMMON;
  if (loginId && lower === loginId.trim().toLowerCase()) return PASSWORD_IS_LOGIN_ID;
  return null;
}
