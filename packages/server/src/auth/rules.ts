import { badRequest } from '../app/errors.js';
import { MSG } from '../app/messages.js';

/** Password minimum (docs/product.md §1.5, §1.9). */
export const PASSWORD_MIN_LENGTH = 8;
/** Bounds the work scrypt does for one request. */
export const PASSWORD_MAX_LENGTH = 256;

// One mailbox, written plainly: no space or control character, and none of the characters that
// make a display name, a comment, a group or a list of addresses (`< > ( ) [ ] \ , ; : "`).
// The mailer reads such a text as a list: "a,b@x.example" was accepted and its link mailed to
// b@x.example, so one mailbox held any number of distinct "addresses" (sign-up credits, and a
// re-creation limit per address, without end).
const ADDRESS_PART = '[^\\s\\x00-\\x1f\\x7f@<>()[\\]\\\\,;:"]+';
const EMAIL = new RegExp(`^${ADDRESS_PART}@${ADDRESS_PART}\\.${ADDRESS_PART}$`);
const USERNAME = /^[a-z0-9._-]{3,32}$/;

/**
 * The one spelling of an address (docs/security.md, "One address, one spelling"): what reaches the
 * same mailbox is the same account. Lower case and NFC (an "é" typed as e + U+0301 is the same
 * text); the domain is folded as DNS resolves it (full-width letters and dots, a trailing root
 * dot). A local part is never folded past NFC: a full-width one is another text, refused by
 * isEmail rather than merged into someone's account.
 */
export function normalizeEmail(value: string): string {
  const address = value.trim().toLowerCase().normalize('NFC');
  const at = address.lastIndexOf('@');
  if (at < 0) return address;
  const domain = address.slice(at + 1).normalize('NFKC').toLowerCase().replace(/[\u3002\uff61]/g, '.').replace(/\.+$/, '');
  return `${address.slice(0, at)}@${domain}`;
}

// Characters nobody sees or that only look like plain ones: invisible format characters (zero-width
// space and joiners, soft hyphen, bidi marks) anywhere, and compatibility forms (full-width,
// ligatures) in the local part, which mail providers do not fold. Each made a second account that
// reads as another person's address.
const INVISIBLE = /\p{Cf}/u;

export function isEmail(value: string): boolean {
  if (value.length > 191 || !EMAIL.test(value) || INVISIBLE.test(value)) return false;
  const local = value.slice(0, value.lastIndexOf('@'));
  return local.normalize('NFKC') === local;
}

/** Usernames are compared and stored in lower case, so MySQL and SQLite agree on uniqueness. */
export function normalizeUsername(value: string): string {
  return value.trim().toLowerCase();
}

/**
 * Names no user may take (docs/admin.md#the-admin-account): the admin's, and the names a user
 * would read as the operator's. Compared by `usernameSkeleton`, so 'ADMIN', 'Adm1n', 'a.d.m.i.n',
 * 'adrnin' or a full-width 'ａｄｍｉｎ' are the same name. The admin account itself is created by
 * the start (users/bootstrap.ts), which does not go through this rule.
 */
export const RESERVED_USERNAMES = ['admin', 'administrator', 'administrateur', 'root', 'superuser', 'sysadmin', 'system', 'support', 'moderator', 'moderateur', 'staff', 'webmaster'] as const;

// Letters and digits that read as one another, after NFKC (full-width, ligatures) and lower case.
const LOOKALIKES: Record<string, string> = {
  '0': 'o', '1': 'l', i: 'l', '|': 'l', '!': 'l', '3': 'e', '4': 'a', '@': 'a', '5': 's', '$': 's', '7': 't', '8': 'b', '9': 'g',
  // Cyrillic and Greek letters drawn like Latin ones (the username rule refuses them anyway).
  'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'і': 'l', 'ј': 'j', 'ѕ': 's', 'м': 'm', 'т': 't', 'н': 'h', 'в': 'b', 'к': 'k',
  'α': 'a', 'ε': 'e', 'ι': 'l', 'ο': 'o', 'ρ': 'p', 'τ': 't', 'υ': 'u', 'ν': 'v', 'κ': 'k', 'μ': 'm', 'ı': 'l',
};

/** What a username looks like, for the reserved-name check: separators dropped, look-alikes folded. */
export function usernameSkeleton(value: string): string {
  const folded = value.normalize('NFKD').replace(/\p{M}/gu, '').normalize('NFKC').toLowerCase().replace(/[\s._\-]/g, '');
  return [...folded.replace(/rn/g, 'm').replace(/vv/g, 'w')].map((c) => LOOKALIKES[c] ?? c).join('');
}

const RESERVED_SKELETONS = new Set(RESERVED_USERNAMES.map(usernameSkeleton));

/** Whether the name is, or looks like, a reserved one. */
export function isReservedUsername(username: string): boolean {
  return RESERVED_SKELETONS.has(usernameSkeleton(username));
}

export function checkEmail(email: string): void {
  if (!isEmail(email)) throw badRequest(MSG.emailInvalid);
}

export function checkUsername(username: string): void {
  if (!USERNAME.test(username)) throw badRequest(MSG.usernameInvalid);
}

export function checkNewPassword(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) throw badRequest(MSG.passwordTooShort);
  if (password.length > PASSWORD_MAX_LENGTH) throw badRequest(`Mot de passe trop long (${PASSWORD_MAX_LENGTH} caractères maximum).`);
}

export function checkName(value: string, max = 100): void {
  if (value.length > max) throw badRequest(`Nom trop long (${max} caractères maximum).`);
}
