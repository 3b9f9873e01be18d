/**
 * The avatar bubble (docs/product.md §1.5): initials from the name, or first and last names, or the e-mail
 * (first letters of the first and last words, upper case, 'U' if nothing); a colour chosen by the
 * user (per key, then a global fallback; hex of 3 or 6 digits) or derived from a hash of the
 * e-mail or name over 9 blues and indigos; text colour picked for contrast.
 */
import type { KeyValueStorage } from '../session/keyStorage.js';
import { fieldString as str } from '../api/fields.js';

export interface AvatarSource {
  name?: unknown;
  full_name?: unknown;
  first_name?: unknown;
  last_name?: unknown;
  email?: unknown;
  username?: unknown;
}

/** 9 blues and indigos, dark to light (Tailwind blue/indigo shades). */
export const AVATAR_PALETTE = [
  '#1e3a8a', '#1e40af', '#1d4ed8', '#2563eb', '#3b82f6', '#60a5fa', '#3730a3', '#4f46e5', '#818cf8',
] as const;

const LIGHT_TEXT = '#ffffff';
const DARK_TEXT = '#0b1020';


/** Words of a text: letters and digits, any script ("Jean-Luc" is two words). */
function words(text: string): string[] {
  return text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

function firstAndLast(list: string[]): string {
  if (list.length === 0) return '';
  const first = list[0][0];
  const last = list.length > 1 ? list[list.length - 1][0] : '';
  return (first + last).toLocaleUpperCase('fr-FR');
}

export function avatarInitials(user: AvatarSource | null | undefined): string {
  if (!user) return 'U';
  const name = str(user.name) || str(user.full_name);
  if (name) {
    const fromName = firstAndLast(words(name));
    if (fromName) return fromName;
  }
  const parts = [str(user.first_name), str(user.last_name)].filter(Boolean).join(' ');
  if (parts) {
    const fromParts = firstAndLast(words(parts));
    if (fromParts) return fromParts;
  }
  const email = str(user.email);
  if (email) {
    const local = email.split('@')[0] ?? '';
    const fromEmail = firstAndLast(words(local));
    if (fromEmail) return fromEmail;
  }
  return 'U';
}

/** '#abc' or '#aabbcc' (the '#' optional on input); null when not a hex colour. */
export function normalizeHexColor(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  return match ? `#${match[1].toLowerCase()}` : null;
}

/** FNV-1a over UTF-16 code units: stable across browsers and sessions. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function derivedAvatarColor(user: AvatarSource | null | undefined): string {
  const seed = (str(user?.email) || str(user?.name) || str(user?.full_name) || str(user?.username) || '').toLowerCase();
  return AVATAR_PALETTE[hashString(seed) % AVATAR_PALETTE.length];
}

function channel(hex: string, index: number): number {
  const full = hex.length === 4 ? hex.slice(1).split('').map((c) => c + c).join('') : hex.slice(1);
  const value = parseInt(full.slice(index * 2, index * 2 + 2), 16) / 255;
  return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
}

export function relativeLuminance(hex: string): number {
  return 0.2126 * channel(hex, 0) + 0.7152 * channel(hex, 1) + 0.0722 * channel(hex, 2);
}

export function contrastRatio(a: string, b: string): number {
  const [la, lb] = [relativeLuminance(a), relativeLuminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** White or near-black, whichever reads better on the background (WCAG contrast ratio). */
export function avatarTextColor(background: string): string {
  const bg = normalizeHexColor(background) ?? AVATAR_PALETTE[0];
  return contrastRatio(bg, LIGHT_TEXT) >= contrastRatio(bg, DARK_TEXT) ? LIGHT_TEXT : DARK_TEXT;
}

export const AVATAR_COLOR_STORAGE = 'avatarColor';

export function avatarColorStorageKey(apiKey: string | null): string {
  return apiKey ? `${AVATAR_COLOR_STORAGE}:${apiKey}` : AVATAR_COLOR_STORAGE;
}

/** The user's chosen colour: the per-key entry, then the global fallback, if valid. */
export function storedAvatarColor(storage: KeyValueStorage, apiKey: string | null): string | null {
  if (apiKey) {
    const perKey = normalizeHexColor(storage.getItem(avatarColorStorageKey(apiKey)));
    if (perKey) return perKey;
  }
  return normalizeHexColor(storage.getItem(AVATAR_COLOR_STORAGE));
}

export function saveAvatarColor(storage: KeyValueStorage, apiKey: string | null, color: string): string {
  const hex = normalizeHexColor(color);
  if (!hex) throw new Error(`invalid avatarColor: ${color} (expected #rgb or #rrggbb)`);
  storage.setItem(avatarColorStorageKey(apiKey), hex);
  storage.setItem(AVATAR_COLOR_STORAGE, hex);
  return hex;
}

export interface AvatarLook {
  initials: string;
  background: string;
  color: string;
}

export function avatarLook(user: AvatarSource | null | undefined, chosen: string | null): AvatarLook {
  const background = normalizeHexColor(chosen) ?? derivedAvatarColor(user);
  return { initials: avatarInitials(user), background, color: avatarTextColor(background) };
}
