// A deterministic M1 series in the official CSV format: a seeded random walk with forex-like
// weekends (Friday 22:00 to Sunday 22:00 UTC closed), five-decimal prices.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { seededRandom as mulberry32 } from '@bt/core/candles';

const MINUTE = 60_000;

function isForexOpen(ms: number): boolean {
  const d = new Date(ms);
  const day = d.getUTCDay();
  const hour = d.getUTCHours();
  if (day === 6) return false;
  if (day === 5 && hour >= 22) return false;
  if (day === 0 && hour < 22) return false;
  return true;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Writes `rows` M1 candles from 2020-01-01 to `path`; resolves when the file is closed. */
export async function writeM1Csv(path: string, rows: number, seed = 20240101): Promise<void> {
  const random = mulberry32(seed);
  const out = createWriteStream(path);
  out.write('Datetime,Open,High,Low,Close,Volume\n');
  let t = Date.UTC(2020, 0, 1, 0, 0);
  let price = 1.1;
  let chunk: string[] = [];
  const round = (x: number) => Math.round(x * 1e5) / 1e5;
  for (let i = 0; i < rows; ) {
    if (!isForexOpen(t)) {
      t += MINUTE;
      continue;
    }
    const open = round(price);
    const close = round(open + (random() - 0.5) * 0.0008);
    const high = round(Math.max(open, close) + random() * 0.0003);
    const low = round(Math.min(open, close) - random() * 0.0003);
    const volume = Math.floor(random() * 500);
    const d = new Date(t);
    chunk.push(`${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:00+00:00,${open},${high},${low},${close},${volume}`);
    if (chunk.length === 10000) {
      if (!out.write(chunk.join('\n') + '\n')) await once(out, 'drain');
      chunk = [];
    }
    price = close;
    t += MINUTE;
    i++;
  }
  if (chunk.length) out.write(chunk.join('\n') + '\n');
  out.end();
  await once(out, 'finish');
}
