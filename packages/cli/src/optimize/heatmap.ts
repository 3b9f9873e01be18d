// The heatmap of two dimensions of an optimisation (docs/cli.md "Heatmap"): Observable Plot run in
// Node on linkedom's DOM (no browser, no canvas), written as a standalone SVG or as an HTML page
// holding the same chart with its colour legend. Each cell is the best objective value among the
// eligible combinations with those two values, the other dimensions free.
import type { OptimizeResult } from '@bt/core/optimize';
import { quoted, UsageError } from '../errors.js';
import type { CombinationRow } from './rows.js';

export interface HeatmapCell {
  readonly x: string;
  readonly y: string;
  /** The best score there; null: no eligible combination. */
  readonly value: number | null;
  readonly combinations: number;
}

/**
 * Most cells a heatmap draws (200 × 200). Two dimensions of 1,000 values each made a million
 * cells to lay out, and the 200,000 a search can fill took 23 s and 1.7 GB in linkedom for an
 * SVG of 43 MB no one can read; checked with the space, before the search runs.
 */
export const MAX_HEATMAP_CELLS = 40_000;

/** The two dimensions asked for, checked against the space (each must vary; at most MAX_HEATMAP_CELLS together). */
export function heatmapAxes(text: string, result: Pick<OptimizeResult, 'dimensions'>): [string, string] {
  const names = text.split(',').map((s) => s.trim()).filter(Boolean);
  const varying = result.dimensions.filter((d) => d.values.length > 1).map((d) => d.name);
  if (names.length !== 2 || names[0] === names[1]) throw new UsageError(`invalid --heatmap: ${quoted(text)} (expected two dimensions of the space, e.g. sl_pips,tp1_pips)`);
  for (const n of names) if (!varying.includes(n)) throw new UsageError(`invalid --heatmap: ${n} (the dimensions that vary are ${varying.join(', ') || 'none'})`);
  const [xs, ys] = names.map((n) => result.dimensions.find((d) => d.name === n)!.values.length);
  if (xs * ys > MAX_HEATMAP_CELLS) {
    const n = (v: number) => v.toLocaleString('en-US');
    throw new UsageError(`invalid --heatmap: ${quoted(text)} (${n(xs)} × ${n(ys)} values are ${n(xs * ys)} cells, at most ${n(MAX_HEATMAP_CELLS)}: give these dimensions fewer values)`);
  }
  return [names[0], names[1]];
}

export function heatmapCells(rows: readonly CombinationRow[], x: string, y: string, result: Pick<OptimizeResult, 'dimensions'>): HeatmapCell[] {
  const label = (v: unknown) => (v === null || v === undefined ? '—' : String(v));
  const cells = new Map<string, { x: string; y: string; value: number | null; combinations: number }>();
  const valuesOf = (name: string) => result.dimensions.find((d) => d.name === name)!.values.map(label);
  for (const xv of valuesOf(x)) for (const yv of valuesOf(y)) cells.set(`${xv}\u0000${yv}`, { x: xv, y: yv, value: null, combinations: 0 });
  for (const r of rows) {
    const c = cells.get(`${label(r.grid[x])}\u0000${label(r.grid[y])}`);
    if (!c) continue;
    c.combinations++;
    const v = r.no_loss ? Infinity : r.score;
    if (r.eligible && v !== null && (c.value === null || v > c.value)) c.value = v;
  }
  return [...cells.values()];
}

const escape = (s: string) => s.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!);
const caption = (objective: string) => `best ${objective} per cell (other dimensions free); empty: no combination with enough trades`;

/** The heatmap as SVG text (`.svg`) or an HTML page (`.html`). */
export async function renderHeatmap(cells: readonly HeatmapCell[], x: string, y: string, meta: { title: string; objective: string; format: 'svg' | 'html' }): Promise<string> {
  const [{ parseHTML }, Plot] = await Promise.all([import('linkedom'), import('@observablehq/plot')]);
  const { document } = parseHTML('<!DOCTYPE html><html><head></head><body></body></html>');
  // A no-loss cell (Infinity) takes the colour of the best finite one. Found once, in a loop:
  // Math.max(...values) per such cell overflowed the stack past about 120,000 cells.
  let bestFinite = 0;
  for (const c of cells) if (c.value !== null && Number.isFinite(c.value) && c.value > bestFinite) bestFinite = c.value;
  const shown = cells.map((c) => ({ ...c, fillValue: c.value === null ? null : Number.isFinite(c.value) ? c.value : bestFinite }));
  const text = (c: HeatmapCell) => (c.value === null ? '' : Number.isFinite(c.value) ? c.value.toFixed(Math.abs(c.value) >= 10 ? 1 : 3) : '∞');
  const xOrder = [...new Set(cells.map((c) => c.x))];
  const yOrder = [...new Set(cells.map((c) => c.y))];
  const chart = Plot.plot({
    document: document as unknown as Document,
    ...(meta.format === 'html' ? { title: meta.title, subtitle: caption(meta.objective) } : {}),
    marginLeft: 80,
    padding: 0.05,
    x: { label: x, domain: xOrder },
    y: { label: y, domain: yOrder },
    // A quantized scale: its legend is drawn with rectangles (a continuous ramp needs a canvas).
    color: { type: 'quantize', n: 9, scheme: 'RdYlGn', legend: meta.format === 'html', label: meta.objective },
    marks: [
      Plot.cell(shown, { x: 'x', y: 'y', fill: (d: { fillValue: number | null }) => d.fillValue, inset: 0.5 }),
      Plot.text(shown, { x: 'x', y: 'y', text: (d: HeatmapCell) => text(d), fill: 'black', fontSize: 10 }),
    ],
  });
  const markup = (chart as unknown as { outerHTML: string }).outerHTML;
  if (meta.format === 'html') {
    return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${escape(meta.title)}</title><style>body{font-family:system-ui,sans-serif;margin:2rem}</style></head><body>\n${markup}\n</body></html>\n`;
  }
  // A standalone SVG: the title and caption as its <title> and <desc> (readers and viewers show them).
  const head = `<title>${escape(meta.title)}</title><desc>${escape(caption(meta.objective))}</desc>`;
  const svg = markup.replace(/^<svg([^>]*)>/, (_, attributes: string) => `<svg xmlns="http://www.w3.org/2000/svg"${attributes}>${head}`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${svg}\n`;
}
