/** A JSON text column read back: `fallback` when it is empty or does not parse. */
export function parseStoredJson<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** A JSON text column that must hold an object (metadata): `{}` when it does not. */
export function parseStoredObject<T extends object>(text: string | null | undefined): Partial<T> {
  const value = parseStoredJson<unknown>(text, null);
  return value && typeof value === 'object' ? (value as Partial<T>) : {};
}
