import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { Semaphore } from '../app/semaphore.js';

/**
 * Passwords: scrypt with a random salt, stored as `scrypt$N$r$p$salt$hash` so the cost can rise
 * without breaking old hashes: a weaker hash is replaced at the next successful login
 * (`needsRehash`). Session keys and one-time tokens are 256-bit random values: a SHA-256 of them
 * is enough to store (nothing to brute-force) and lets us look them up.
 */
export interface ScryptCost {
  /** log2 of N, the CPU/memory cost. */
  logN: number;
  r: number;
  p: number;
}

/** OWASP's current minimum for scrypt (N = 2^17, r = 8, p = 1: 128 MiB and ~0.3 s per hash here). */
export const OWASP_SCRYPT: ScryptCost = { logN: 17, r: 8, p: 1 };
const KEYLEN = 32;
/** Stored hashes above this cost are refused rather than computed (a tampered row cannot stall the server). */
const MAX_LOG_N = 20;

/**
 * At most two hashes at once: each holds 128 MiB and a libuv thread for ~0.4 s, and the four
 * libuv threads also serve SQLite and file reads, which a burst of logins must not starve.
 */
const hashing = new Semaphore(2);

async function scryptAsync(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  // scrypt needs 128·N·r bytes; twice that leaves room for Node's own accounting.
  const maxmem = 256 * n * r;
  const done = await hashing.tryUse(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password.normalize('NFKC'), salt, KEYLEN, { N: n, r, p, maxmem }, (err, key) => (err ? reject(err) : resolve(key))),
      ),
  );
  return done!.value;
}

export async function hashPassword(password: string, cost: ScryptCost = OWASP_SCRYPT): Promise<string> {
  const salt = randomBytes(16);
  const n = 2 ** cost.logN;
  const key = await scryptAsync(password, salt, n, cost.r, cost.p);
  return ['scrypt', n, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string | null | undefined, cost: ScryptCost = OWASP_SCRYPT): Promise<boolean> {
  const parsed = stored ? parseHash(stored) : null;
  if (!parsed) {
    // Spend the same time as a real check, so timing does not tell which accounts exist.
    await scryptAsync(password, Buffer.alloc(16), 2 ** cost.logN, cost.r, cost.p);
    return false;
  }
  const key = await scryptAsync(password, parsed.salt, parsed.n, parsed.r, parsed.p);
  return key.length === parsed.hash.length && timingSafeEqual(key, parsed.hash);
}

/** True when the stored hash is weaker than `cost` (or not ours): rehash it after a successful check. */
export function needsRehash(stored: string, cost: ScryptCost = OWASP_SCRYPT): boolean {
  const parsed = parseHash(stored);
  return !parsed || parsed.n < 2 ** cost.logN || parsed.r < cost.r || parsed.p < cost.p;
}

function parseHash(stored: string): { n: number; r: number; p: number; salt: Buffer; hash: Buffer } | null {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  const values = [Number(n), Number(r), Number(p)];
  if (scheme !== 'scrypt' || !salt || !hash || !values.every((v) => Number.isInteger(v) && v > 0)) return null;
  if (values[0] > 2 ** MAX_LOG_N || values[1] > 32 || values[2] > 16) return null;
  return { n: values[0], r: values[1], p: values[2], salt: Buffer.from(salt, 'base64'), hash: Buffer.from(hash, 'base64') };
}

/** A new random secret (API key, reset or verification token), URL-safe. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
