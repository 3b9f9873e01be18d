// The heatmap of two dimensions of an optimisation (docs/cli.md "Heatmap"): Observable Plot run in
// Node on linkedom's DOM (no browser, no canvas), written as a standalone SVG or as an HTML page
// holding the same chart with its colour legend. Each cell is the best objective value among the
// eligible combinations with those two values, the other dimensions free.
import type { OptimizeResult } from '@bt/core/optimize';
import { UsageError } from '../errors.js';
import type { CombinationRow } from './rows.js';

export interface HeatmapCell {
  readonly x: string;
  readonly y: string;
  /** The best score there; null: no eligible combination. */
  readonly value: number | null;
  readonly combinations: number;
}

/** The two dimensions asked for, checked against the space (each must vary). */
export function heatmapAxes(text: string, result: Pick<OptimizeResult, 'dimensions'>): [string, string] {
  const names = text.split(',').map((s) => s.trim()).filter(Boolean);
  const varying = result.dimensions.filter((d) => d.values.length > 1).map((d) => d.name);
  if (names.length !== 2 || names[0] === names[1]) throw new UsageError(`invalid --heatmap: ${JSON.stringify(text)} (expected two dimensions of the space, e.g. sl_pips,tp1_pips)`);
  for (const n of names) if (!varying.includes(n)) throw new UsageError(`invalid --heatmap: ${n} (the dimensions that vary are ${varying.join(', ') || 'none'})`);
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
  const finite = cells.filter((c) => c.value !== null && Number.isFinite(c.value));
  const shown = cells.map((c) => ({ ...c, fillValue: c.value === null ? null : Number.isFinite(c.value) ? c.value : Math.max(0, ...finite.map((f) => f.value!)) }));
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
