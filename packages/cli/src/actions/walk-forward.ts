// `bt walk-forward`: per fold, every combination on the in-sample window (on worker threads),
// the winner judged on the out-of-sample window that follows; a table of folds, the pooled
// out-of-sample figures and how much survives (docs/cli.md; rules: docs/engine.md §14).
import { formatPercentCell } from '@bt/core/format';
import { checkWalkForwardSize, chooseOnInSample, walkForwardFolds, walkForwardSummary, type FoldResult, type FoldSpec, type WalkForwardResult } from '@bt/core/optimize';
import { csvLines } from '../csv.js';
import { quoted, UsageError } from '../errors.js';
import { checkWritable, refuseInputAsOutput } from '../paths.js';
import { count, jsonHeader, print, printJson, renderTable, styles, writeOutput } from '../output.js';
import { parseDuration } from '../optimize/durations.js';
import { combinationRow } from '../optimize/rows.js';
import { searchSetup, startPool, type SearchFlags, type SearchSetup } from '../optimize/setup.js';
import { defaultName, gridLabel, searchReporter } from './optimize.js';

export interface WalkForwardFlags extends SearchFlags {
  inSample: string;
  outOfSample: string;
  step?: string;
  anchored?: boolean;
  csv?: string;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const pct = (x: number | null | undefined) => (x === null || x === undefined ? '' : formatPercentCell(x));
const num = (x: number | null | undefined, d = 3) => (x === null || x === undefined ? '' : x.toFixed(d));

export async function walkForwardCommand(flags: WalkForwardFlags): Promise<void> {
  const spec: FoldSpec = {
    mode: flags.anchored ? 'anchored' : 'rolling',
    inSampleMs: parseDuration('--in-sample', flags.inSample),
    outOfSampleMs: parseDuration('--out-of-sample', flags.outOfSample),
    ...(flags.step !== undefined ? { stepMs: parseDuration('--step', flags.step) } : {}),
  };
  // Core refuses it too (walkForwardFolds), but only once the data is read, under its field's name.
  if (spec.stepMs !== undefined && spec.stepMs < spec.outOfSampleMs) {
    throw new UsageError(`invalid --step: ${quoted(flags.step)} (expected at least --out-of-sample ${flags.outOfSample}: overlapping out-of-sample windows would count their trades more than once)`);
  }
  if (flags.csv === '-' && flags.json) throw new UsageError('--csv - and --json both write to stdout: choose one');
  const setup = await searchSetup(flags);
  const csvPath = flags.csv ?? `${defaultName(setup, 'walk-forward')}.csv`;
  await refuseInputAsOutput('--csv', csvPath, [setup.data.path]);
  await checkWritable(csvPath);
  let folds;
  try {
    folds = walkForwardFolds(setup.data.file.candles.time, spec, setup.period.from, setup.period.to);
    checkWalkForwardSize(folds.length, setup.indices.length);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { indices, ranking } = setup;
  const total = folds.length * indices.length;
  const title = `bt walk-forward ${setup.base.strategy} · ${setup.data.path} · ${folds.length} ${spec.mode} folds × ${count(indices.length)} combinations`;
  const reporter = await searchReporter(title, flags.progress !== false);
  const pool = startPool(setup, flags, total);
  const started = performance.now();
  const results: FoldResult[] = [];
  let failed = 0;
  try {
    for (const fold of folds) {
      const before = results.length * indices.length;
      const evaluations = await pool.evaluate(fold.inSample, indices, (done, chunk) => {
        failed += chunk.filter((e) => e.error !== null).length;
        const elapsedMs = performance.now() - started;
        const all = before + done;
        reporter?.update({ total, done: all, failed, workers: pool.workers, elapsedMs, etaMs: (elapsedMs / all) * (total - all), best: `fold ${fold.index + 1}/${folds.length}: in sample ${day(fold.inSample.from)} → ${day(fold.inSample.to)}` });
      }, setup.search.kind === 'grid' ? setup.grid.exitBlock : 1);
      const { chosen, eligible } = chooseOnInSample(evaluations, ranking);
      let judged: { figures: FoldResult['outOfSampleFigures']; trades: FoldResult['outOfSampleTrades'] } = { figures: null, trades: [] };
      if (chosen) {
        const c = { index: chosen.index, params: chosen.params, slPips: chosen.slPips ?? undefined, tp1Pips: chosen.tp1Pips ?? undefined, tp2Pips: chosen.tp2Pips ?? undefined };
        judged = await pool.judge(fold.outOfSample, c, ranking.target);
      }
      results.push({ ...fold, chosen, evaluated: evaluations.length, eligible, outOfSampleFigures: judged.figures, outOfSampleTrades: judged.trades });
    }
  } finally {
    await reporter?.close();
    await pool.close();
  }
  const elapsedMs = performance.now() - started;
  const summary = walkForwardSummary(results, { ...ranking, mode: spec.mode });
  const rows = foldRows(summary, setup);
  await writeOutput(csvPath, foldsCsv(rows));
  if (flags.json) {
    printJson({
      ...jsonHeader('walk-forward'),
      data: setup.data.path, symbol: setup.base.symbol, timeframe: setup.data.timeframe ?? null, strategy: setup.base.strategy, costs: setup.base.costs ?? null,
      mode: spec.mode, in_sample_ms: spec.inSampleMs, out_of_sample_ms: spec.outOfSampleMs, step_ms: spec.stepMs ?? spec.outOfSampleMs,
      objective: summary.objective, target: summary.target, min_trades: summary.minTrades, search: setup.search, combinations: indices.length,
      workers: pool.workers, elapsed_ms: Math.round(elapsedMs), csv: csvPath === '-' ? null : csvPath,
      folds: rows,
      out_of_sample: { trades: summary.outOfSampleTrades.length, global: summary.outOfSample.global },
      survival: summary.survival,
    });
    return;
  }
  if (csvPath !== '-') printFolds(summary, rows, setup, elapsedMs, pool.workers, csvPath);
}

interface FoldRow {
  fold: number;
  in_sample_from: string;
  in_sample_to: string;
  out_of_sample_from: string;
  out_of_sample_to: string;
  chosen: string | null;
  params: Readonly<Record<string, unknown>> | null;
  sl_pips: number | null;
  tp1_pips: number | null;
  tp2_pips: number | null;
  eligible: number;
  in_sample_score: number | null;
  in_sample_resolved: number | null;
  in_sample_winrate: number | null;
  in_sample_expectancy: number | null;
  out_of_sample_trades: number;
  out_of_sample_resolved: number | null;
  out_of_sample_winrate: number | null;
  out_of_sample_expectancy: number | null;
  out_of_sample_total_r: number | null;
}

function foldRows(summary: WalkForwardResult, setup: SearchSetup): FoldRow[] {
  return summary.folds.map((f) => {
    const row = f.chosen ? combinationRow(f.chosen, { target: summary.target, dimensions: setup.grid.dimensions.filter((d) => d.values.length > 1) }) : null;
    const o = f.outOfSampleFigures;
    return {
      fold: f.index + 1,
      in_sample_from: day(f.inSample.from), in_sample_to: day(f.inSample.to),
      out_of_sample_from: day(f.outOfSample.from), out_of_sample_to: day(f.outOfSample.to),
      chosen: row ? gridLabel(row) : null,
      params: f.chosen?.params ?? null,
      sl_pips: f.chosen?.slPips ?? null, tp1_pips: f.chosen?.tp1Pips ?? null, tp2_pips: f.chosen?.tp2Pips ?? null,
      eligible: f.eligible,
      in_sample_score: row?.score ?? null, in_sample_resolved: row?.resolved ?? null, in_sample_winrate: row?.winrate ?? null, in_sample_expectancy: row?.expectancy ?? null,
      out_of_sample_trades: f.outOfSampleTrades.length, out_of_sample_resolved: o?.resolved ?? null, out_of_sample_winrate: o?.winrate ?? null,
      out_of_sample_expectancy: o?.expectancyR ?? null, out_of_sample_total_r: o ? o.totalR : null,
    };
  });
}

export function foldsCsv(rows: readonly FoldRow[]): string {
  const columns = Object.keys(rows[0] ?? { fold: 0 }) as (keyof FoldRow)[];
  return csvLines([columns, ...rows.map((r) => columns.map((c) => r[c]))]);
}

function printFolds(summary: WalkForwardResult, rows: readonly FoldRow[], setup: SearchSetup, elapsedMs: number, workers: number, csvPath: string): void {
  const s = styles();
  const t = summary.target.toUpperCase();
  print(s.bold(`Walk-forward (${summary.mode}) · ${setup.base.strategy} · ${summary.objective} at ${t}, at least ${summary.minTrades} resolved trades in sample`));
  print(renderTable(
    ['fold', 'in sample', 'out of sample', 'chosen', `IS ${summary.objective}`, 'IS trades', 'OOS trades', 'OOS win rate', 'OOS expectancy R'],
    rows.map((r) => [String(r.fold), `${r.in_sample_from} → ${r.in_sample_to}`, `${r.out_of_sample_from} → ${r.out_of_sample_to}`, r.chosen ?? s.dim('no eligible combination'), num(r.in_sample_score), r.in_sample_resolved === null ? '' : String(r.in_sample_resolved), String(r.out_of_sample_trades), pct(r.out_of_sample_winrate), num(r.out_of_sample_expectancy)]),
    { header: s.dim },
  ));
  const sv = summary.survival;
  const g = summary.outOfSample.global;
  const fig = g[summary.target];
  print('');
  print(s.bold('Out of sample, all folds'));
  print(`  ${count(g.trades)} trades, ${count(fig.resolved)} resolved · win rate ${pct(fig.winrate)} · expectancy ${num(fig.expectancyR)} R · total ${num(fig.totalR, 2)} R · profit factor ${num(fig.profitFactor, 2)} · max drawdown ${num(fig.maxDrawdownR, 2)} R`);
  print(s.bold('What survives out of sample'));
  const kept = (ratio: number | null) => (ratio === null ? '' : ratio < 0 ? ' (the sign is reversed out of sample)' : ` (${(ratio * 100).toFixed(0)} % kept)`);
  print(`  expectancy ${num(sv.inSample.expectancyR)} R in sample → ${num(sv.outOfSample.expectancyR)} R out of sample${kept(sv.expectancyRatio)}`);
  print(`  win rate ${pct(sv.inSample.winrate)} → ${pct(sv.outOfSample.winrate)}${kept(sv.winrateRatio)} · ${sv.profitableFolds} of ${sv.tradedFolds} traded folds profitable out of sample`);
  print('');
  print(`${rows.length} folds × ${count(setup.indices.length)} combinations in ${(elapsedMs / 1000).toFixed(1)} s on ${workers} worker${workers === 1 ? '' : 's'} · CSV of the folds: ${csvPath}`);
}
