import type { SessionName } from './types.js';

/** Fixed UTC session buckets by entry hour (DESIGN §2); the Config sheet lists them. */
export const SESSION_BUCKETS: readonly { readonly name: SessionName; readonly fromHour: number; readonly toHour: number }[] = [
  { name: 'Asie', fromHour: 0, toHour: 7 },
  { name: 'Londres', fromHour: 8, toHour: 12 },
  { name: 'Londres/New York', fromHour: 13, toHour: 16 },
  { name: 'New York', fromHour: 17, toHour: 21 },
  { name: 'Hors session', fromHour: 22, toHour: 23 },
];

const BY_HOUR: SessionName[] = [];
for (const b of SESSION_BUCKETS) for (let h = b.fromHour; h <= b.toHour; h++) BY_HOUR[h] = b.name;

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** UTC hour 0..23 of an instant in ms. */
export function utcHour(ms: number): number {
  return (((Math.floor(ms / HOUR) % 24) + 24) % 24);
}

/** UTC weekday, 0 = Monday .. 6 = Sunday (1970-01-01 was a Thursday). */
export function utcWeekday(ms: number): number {
  return (((Math.floor(ms / DAY) + 3) % 7) + 7) % 7;
}

export function sessionOfHour(hour: number): SessionName {
  const name = BY_HOUR[hour];
  if (name === undefined) throw new Error(`invalid hour: ${hour}`);
  return name;
}

/** "Asie 00-07 UTC" style lines for the Config sheet. */
export function sessionBucketLines(): string[] {
  const two = (h: number) => String(h).padStart(2, '0');
  return SESSION_BUCKETS.map((b) => `${b.name} ${two(b.fromHour)}-${two(b.toHour)} UTC`);
}
