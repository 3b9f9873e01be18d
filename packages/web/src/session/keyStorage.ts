/**
 * Where the session key lives in browser storage (docs/product.md §1.3, docs/product.md §2.3). It is written as
 * `apiKey`; older names (`token`, `X-API-Key`, and `user.token` inside a stored user object) are
 * read as fallbacks and cleared on logout, so a key never survives under another name.
 */

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export const API_KEY_STORAGE = 'apiKey';
const LEGACY_KEYS = ['token', 'X-API-Key'] as const;
const LEGACY_USER = 'user';

function nonBlank(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' || trimmed === 'null' || trimmed === 'undefined' ? null : trimmed;
}

export function readStoredKey(storage: KeyValueStorage): string | null {
  const direct = nonBlank(storage.getItem(API_KEY_STORAGE));
  if (direct) return direct;
  for (const name of LEGACY_KEYS) {
    const value = nonBlank(storage.getItem(name));
    if (value) return value;
  }
  const user = storage.getItem(LEGACY_USER);
  if (user) {
    try {
      const parsed = JSON.parse(user) as { token?: unknown };
      if (typeof parsed?.token === 'string') return nonBlank(parsed.token);
    } catch {
      // A non-JSON user entry carries no key.
    }
  }
  return null;
}

export function storeKey(storage: KeyValueStorage, key: string): void {
  storage.setItem(API_KEY_STORAGE, key);
}

export function clearStoredKey(storage: KeyValueStorage): void {
  storage.removeItem(API_KEY_STORAGE);
  for (const name of LEGACY_KEYS) storage.removeItem(name);
  storage.removeItem(LEGACY_USER);
}

/** Storage-event keys that mean "the session key changed" (docs/product.md §1.4: other tabs too). */
export function isKeyStorageEvent(key: string | null): boolean {
  return key === null || key === API_KEY_STORAGE || key === LEGACY_USER || (LEGACY_KEYS as readonly string[]).includes(key);
}

/** A storage that forgets everything (private mode, tests). */
export function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage & { dump(): Record<string, string> } {
  const map = new Map(Object.entries(initial));
  return {
    getItem: (k) => (map.has(k) ? map.get(k)! : null),
    setItem: (k, v) => void map.set(k, String(v)),
    removeItem: (k) => void map.delete(k),
    dump: () => Object.fromEntries(map),
  };
}

/** localStorage when the browser allows it, memory otherwise (Safari private mode throws). */
export function browserStorage(kind: 'localStorage' | 'sessionStorage' = 'localStorage'): KeyValueStorage {
  try {
    const storage = globalThis[kind];
    const probe = '__bt_probe__';
    storage.setItem(probe, '1');
    storage.removeItem(probe);
    return storage;
  } catch {
    return memoryStorage();
  }
}
