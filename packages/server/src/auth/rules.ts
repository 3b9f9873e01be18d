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

export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

export function isEmail(value: string): boolean {
  return value.length <= 191 && EMAIL.test(value);
}

/** Usernames are compared and stored in lower case, so MySQL and SQLite agree on uniqueness. */
export function normalizeUsername(value: string): string {
  return value.trim().toLowerCase();
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
