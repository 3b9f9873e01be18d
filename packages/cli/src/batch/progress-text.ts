// Progress of a batch as text: shared by the plain lines (pipes, CI logs) and the Ink view.
import type { Progress } from './pool.js';
import type { RunRow } from './run-row.js';

import { duration } from '../progress/text.js';

export function runLabel(row: RunRow): string {
  const grid = Object.entries(row.grid).map(([k, v]) => `${k}=${v}`).join(' ');
  return `${row.strategy}${grid ? ` [${grid}]` : ''} · ${row.data}`;
}

/** One line per finished run: `[12/48] ok     strategy · data · 501 trades · 35 ms · ETA 3 s`. */
export function progressLine(p: Progress): string | null {
  const row = p.last;
  if (!row) return null;
  const head = `[${p.done}/${p.total}]`;
  if (!row.ok) return `${head} FAILED ${runLabel(row)}: ${row.error}`;
  return `${head} ok     ${runLabel(row)} · ${row.trades} trades · ${Math.round(row.engine_ms)} ms · ETA ${duration(p.etaMs)}`;
}
