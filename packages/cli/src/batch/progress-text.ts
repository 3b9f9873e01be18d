// Progress of a batch as text: shared by the plain lines (pipes, CI logs) and the Ink view.
import type { Progress } from './pool.js';
import type { RunRow } from './run-row.js';

export function duration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '?';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${String(s % 60).padStart(2, '0')} s` : `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

export const rate = (p: Progress) => (p.elapsedMs > 0 ? (p.done / p.elapsedMs) * 1000 : 0);

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
