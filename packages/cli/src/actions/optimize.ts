// `bt optimize`: a grid or random search over a strategy's parameters and exits, on worker threads,
// ranked by an objective; a ranked table (or JSON), a CSV of every combination, and a heatmap of
// two dimensions (docs/cli.md "bt optimize"). The rules are core's optimize (docs/engine.md §14).
import { basename, extname } from 'node:path';
import { CombinationEvaluator, optimizeResult, type Evaluation, type OptimizeResult } from '@bt/core/optimize';
import { UsageError } from '../errors.js';
import { count, jsonHeader, print, printJson, renderTable, styles, writeOutput } from '../output.js';
import { combinationRow, combinationsCsv, rankedTable, type CombinationRow } from '../optimize/rows.js';
import { heatmapAxes, heatmapCells, renderHeatmap } from '../optimize/heatmap.js';
import { searchSetup, startPool, type SearchFlags, type SearchSetup } from '../optimize/setup.js';
import { startReporter } from '../progress/reporter.js';
import type { ProgressState } from '../progress/view.js';
import { parsePositiveInt } from '../options.js';
import { checkWritable, refuseInputAsOutput } from '../paths.js';

export interface OptimizeFlags extends SearchFlags {
  csv?: string;
  top: string;
  heatmap?: string;
  heatmapOut?: string;
}

export interface SearchProgress extends ProgressState {
  readonly best: string | null;
}

/** The progress view and lines of a search (shared with walk-forward). */
export async function searchReporter(title: string, enabled: boolean) {
  return startReporter<SearchProgress>({
    title,
    enabled,
    view: async (progress, color) => {
      const [{ createElement }, { ProgressView }] = await Promise.all([import('react'), import('../progress/view.js')]);
      return createElement(ProgressView, { title, progress, unit: 'combinations', last: progress.best, color });
    },
    line: (p) => `[${count(p.done)}/${count(p.total)}] combinations${p.best ? ` · ${p.best}` : ''}`,
    finished: (p) => p.done >= p.total,
  });
}

/** `min_wait_candles=2 sl_pips=15`: the values of the varying dimensions. */
export function gridLabel(row: Pick<CombinationRow, 'grid'>): string {
  return Object.entries(row.grid).map(([k, v]) => `${k}=${v ?? '—'}`).join(' ');
}

export function defaultName(setup: SearchSetup, suffix: string): string {
  return `${basename(setup.data.path, extname(setup.data.path))}_${setup.base.strategy}-${suffix}`;
}

export async function optimizeCommand(flags: OptimizeFlags): Promise<void> {
  const top = parsePositiveInt('--top', flags.top);
  if (flags.csv === '-' && flags.json) throw new UsageError('--csv - and --json both write to stdout: choose one');
  const heatmapFormat = flags.heatmapOut === undefined ? 'svg' : /\.html?$/i.test(flags.heatmapOut) ? 'html' : /\.svg$/i.test(flags.heatmapOut) ? 'svg' : null;
  if (heatmapFormat === null) throw new UsageError(`invalid --heatmap-out: ${JSON.stringify(flags.heatmapOut)} (expected a file ending in .svg or .html)`);
  if (flags.heatmapOut !== undefined && flags.heatmap === undefined) throw new UsageError('--heatmap-out needs --heatmap x,y');
  const setup = await searchSetup(flags);
  const { grid, indices, ranking } = setup;
  const csvPath = flags.csv ?? `${defaultName(setup, 'optimize')}.csv`;
  await refuseInputAsOutput('--csv', csvPath, [setup.data.path]);
  await checkWritable(csvPath);
  if (flags.heatmapOut !== undefined) {
    await refuseInputAsOutput('--heatmap-out', flags.heatmapOut, [setup.data.path, csvPath]);
    await checkWritable(flags.heatmapOut);
  }
  const dimensions = grid.dimensions.filter((d) => d.values.length > 1).map((d) => d.name);
  if (flags.heatmap !== undefined) heatmapAxes(flags.heatmap, { dimensions: grid.dimensions });

  const evaluator = new CombinationEvaluator(setup.data.file.candles, setup.base, setup.period);
  const title = `bt optimize ${setup.base.strategy} · ${setup.data.path} · ${count(indices.length)} combinations of ${count(grid.size)}`;
  const reporter = await searchReporter(title, flags.progress !== false);
  const pool = startPool(setup, flags, indices.length);
  const started = performance.now();
  let best: { score: number; label: string } | null = null;
  let failed = 0;
  let evaluations: Evaluation[];
  try {
    evaluations = await pool.evaluate(setup.period, indices, (done, chunk) => {
      const ranked = optimizeResult(grid, chunk, ranking, evaluator).ranked;
      failed += chunk.filter((e) => e.error !== null).length;
      const top1 = ranked[0];
      if (top1?.eligible && top1.score !== null && (best === null || top1.score > best.score)) {
        best = { score: top1.score, label: `best so far: ${gridLabel(combinationRow(top1, { target: ranking.target, dimensions: grid.dimensions }))} · ${ranking.objective} ${Number.isFinite(top1.score) ? top1.score.toFixed(3) : '∞'}` };
      }
      const elapsedMs = performance.now() - started;
      reporter?.update({ total: indices.length, done, failed, workers: pool.workers, elapsedMs, etaMs: (elapsedMs / done) * (indices.length - done), best: best?.label ?? null });
    }, setup.search.kind === 'grid' ? grid.exitBlock : 1);
  } finally {
    await reporter?.close();
    await pool.close();
  }
  const elapsedMs = performance.now() - started;
  const result = optimizeResult(grid, evaluations, ranking, evaluator);
  const rows = result.ranked.map((e) => combinationRow(e, result));

  const csv = combinationsCsv(rows, dimensions);
  await writeOutput(csvPath, csv);
  let heatmapPath: string | null = null;
  if (flags.heatmap !== undefined) {
    const [x, y] = heatmapAxes(flags.heatmap, result);
    heatmapPath = flags.heatmapOut ?? `${defaultName(setup, 'heatmap')}.svg`;
    const svg = await renderHeatmap(heatmapCells(rows, x, y, result), x, y, { title: `${setup.base.symbol} ${setup.data.timeframe ?? ''} · ${setup.base.strategy} · ${x} × ${y}`, objective: `${result.objective} (${result.target.toUpperCase()})`, format: heatmapFormat });
    await writeOutput(heatmapPath, svg);
  }

  if (flags.json) {
    printJson({ ...jsonHeader('optimize'), ...optimizeJson(setup, result, rows, elapsedMs, pool.workers), csv: csvPath === '-' ? null : csvPath, heatmap: heatmapPath });
  } else if (csvPath !== '-') {
    printRanking(setup, result, rows, dimensions, top, elapsedMs, pool.workers);
    print(`CSV of every combination: ${csvPath}`);
    if (heatmapPath) print(`Heatmap: ${heatmapPath}`);
  }
  if (result.eligible === 0) process.stderr.write(`bt: ${noEligible(result.minTrades, result.target)}\n`);
}

/**
 * Why nothing ranks. A combination without a resolved trade has no objective, so it never ranks,
 * whatever --min-trades says: at 0 or 1 the advice to lower it was no advice.
 */
export function noEligible(minTrades: number, target: 'tp1' | 'tp2'): string {
  const at = target.toUpperCase();
  if (minTrades <= 1) return `no combination has a resolved trade at ${at} (widen the period, or try other values)`;
  return `no combination has ${minTrades} resolved trades at ${at} (lower --min-trades, or widen the period)`;
}

export function optimizeJson(setup: SearchSetup, result: OptimizeResult, rows: readonly CombinationRow[], elapsedMs: number, workers: number) {
  return {
    data: setup.data.path,
    symbol: setup.base.symbol,
    timeframe: setup.data.timeframe ?? null,
    strategy: setup.base.strategy,
    sl_mode: setup.base.slMode,
    costs: setup.base.costs ?? null,
    from: setup.period.from ?? null,
    to: setup.period.to ?? null,
    objective: result.objective,
    target: result.target,
    min_trades: result.minTrades,
    search: setup.search,
    space_size: result.spaceSize,
    dimensions: result.dimensions,
    evaluated: result.evaluated,
    eligible: result.eligible,
    failed: result.failed,
    candles: result.candles,
    warmup_candles: result.warmupCandles,
    workers,
    elapsed_ms: Math.round(elapsedMs),
    combinations_per_s: Math.round((result.evaluated / elapsedMs) * 1000 * 10) / 10,
    best: rows[0]?.eligible ? rows[0] : null,
    combinations: rows,
  };
}

function printRanking(setup: SearchSetup, result: OptimizeResult, rows: readonly CombinationRow[], dimensions: readonly string[], top: number, elapsedMs: number, workers: number): void {
  const s = styles();
  print(s.bold(`Best ${Math.min(top, result.eligible)} of ${count(result.evaluated)} combinations by ${result.objective} at ${result.target.toUpperCase()} (at least ${result.minTrades} resolved trades)`));
  const table = rankedTable(rows.filter((r) => r.eligible), dimensions, top);
  if (table.rows.length > 0) print(renderTable(table.headers, table.rows, { header: s.dim }));
  else print('  none');
  print('');
  print(`${count(result.evaluated)} combinations in ${(elapsedMs / 1000).toFixed(1)} s on ${workers} worker${workers === 1 ? '' : 's'}: ${count(result.eligible)} eligible, ${count(result.evaluated - result.eligible - result.failed)} with too few trades, ${count(result.failed)} refused · ${((result.evaluated / elapsedMs) * 1000).toFixed(0)} combinations/s`);
  for (const r of rows.filter((x) => x.error !== null).slice(0, 5)) print(s.red(`refused: ${gridLabel(r)}: ${r.error}`));
}
