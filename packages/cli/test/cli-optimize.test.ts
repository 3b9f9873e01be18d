// bt optimize, bt walk-forward, and the cost and Monte Carlo flags of bt backtest: the built binary
// against core's in-process results, the files it writes, and bad input with exact messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBacktest } from '@bt/core/backtest';
import { monteCarlo, rSequence } from '@bt/core/montecarlo';
import { optimize, walkForward } from '@bt/core/optimize';
import { readCandlesFile } from '@bt/core/node';
import { bt, EURUSD_H1, fixture, mapLimit, tempDir } from './helpers.js';

const DAY = 86_400_000;
const SEARCH = ['--data', EURUSD_H1, '--strategy', 'englobante_entry', '--sl', '10,20,30', '--tp1', '10..40:10', '--param', 'confirm_candle=false,true', '--no-progress', '--concurrency', '2'];

test('bt optimize: the ranking and figures of core’s optimize, the CSV of every combination, an SVG heatmap', async () => {
  const tmp = tempDir();
  try {
    const csv = join(tmp.dir, 'o.csv');
    const svg = join(tmp.dir, 'h.svg');
    const r = await bt(['optimize', ...SEARCH, '--spread', 'typical', '--json', '--csv', csv, '--heatmap', 'sl_pips,tp1_pips', '--heatmap-out', svg]);
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.equal(json.command, 'optimize');
    assert.equal(json.evaluated, 24);
    assert.deepEqual(json.costs, { spreadPips: 1.3 }, 'EURUSD’s typical spread');
    const { candles } = await readCandlesFile(EURUSD_H1);
    const core = optimize(candles, { strategy: 'englobante_entry', symbol: 'EURUSD', pipSize: 0.0001, timeframe: 'H1', slMode: 'external', costs: { spreadPips: 1.3 }, space: { params: { confirm_candle: [false, true] }, slPips: [10, 20, 30], tp1Pips: [10, 20, 30, 40] } });
    assert.deepEqual(json.combinations.map((c: { combination: number }) => c.combination), core.ranked.map((e) => e.index));
    assert.equal(json.best.expectancy, core.best!.figures!.tp1.expectancyR);
    assert.equal(json.best.resolved, core.best!.figures!.tp1.resolved);
    const lines = readFileSync(csv, 'utf8').trim().split('\n');
    assert.equal(lines.length, 25);
    assert.match(lines[0], /^rank,combination,status,error,confirm_candle,sl_pips,tp1_pips,tp2_pips,trades,resolved,/);
    const map = readFileSync(svg, 'utf8');
    assert.match(map, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.match(map, /<title>EURUSD H1 · englobante_entry · sl_pips × tp1_pips<\/title>/);
    assert.equal((map.match(/<rect /g) ?? []).length >= 12, true, 'one cell per (sl, tp1)');
    const html = join(tmp.dir, 'h.html');
    const h = await bt(['optimize', ...SEARCH, '--csv', join(tmp.dir, 'o2.csv'), '--heatmap', 'tp1_pips,confirm_candle', '--heatmap-out', html, '--top', '3']);
    assert.equal(h.code, 0, h.stderr);
    assert.match(h.stdout, /^Best 3 of 24 combinations by expectancy at TP1 \(at least 30 resolved trades\)\n#  confirm_candle  sl_pips  tp1_pips  trades/);
    assert.match(h.stdout, /\n24 combinations in [\d.]+ s on 2 workers: 24 eligible, 0 with too few trades, 0 refused/);
    assert.match(readFileSync(html, 'utf8'), /^<!DOCTYPE html>\n<html lang="en">[\s\S]*<figure[\s\S]*<svg[\s\S]*<\/figure>/);
  } finally {
    tmp.remove();
  }
});

test('bt walk-forward: the folds and out-of-sample figures of core’s walkForward', async () => {
  const tmp = tempDir();
  try {
    const r = await bt(['walk-forward', ...SEARCH.filter((a) => a !== '--param' && a !== 'confirm_candle=false,true'), '--in-sample', '60d', '--out-of-sample', '30d', '--min-trades', '10', '--json', '--csv', join(tmp.dir, 'wf.csv')]);
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    const { candles } = await readCandlesFile(EURUSD_H1);
    const core = walkForward(candles, { strategy: 'englobante_entry', symbol: 'EURUSD', pipSize: 0.0001, timeframe: 'H1', slMode: 'external', space: { slPips: [10, 20, 30], tp1Pips: [10, 20, 30, 40] }, folds: { mode: 'rolling', inSampleMs: 60 * DAY, outOfSampleMs: 30 * DAY }, minTrades: 10 });
    assert.equal(json.folds.length, core.folds.length);
    json.folds.forEach((f: { sl_pips: number | null; tp1_pips: number | null; out_of_sample_trades: number }, i: number) => {
      assert.deepEqual([f.sl_pips, f.tp1_pips, f.out_of_sample_trades], [core.folds[i].chosen?.slPips ?? null, core.folds[i].chosen?.tp1Pips ?? null, core.folds[i].outOfSampleTrades.length], `fold ${i + 1}`);
    });
    assert.deepEqual(json.out_of_sample.global, core.outOfSample.global);
    assert.deepEqual(json.survival, core.survival);
    assert.equal(readFileSync(join(tmp.dir, 'wf.csv'), 'utf8').trim().split('\n').length, core.folds.length + 1);
  } finally {
    tmp.remove();
  }
});

test('bt backtest with costs and --monte-carlo: core’s result with the same costs, and core’s Monte Carlo', async () => {
  const smc = fixture('smc/EURUSD_15M.csv');
  const r = await bt(['backtest', '--data', smc, '--utc-offset', '+02:00', '--strategy', 'fvg_impulsive', '--sl', '10', '--tp1', '10', '--spread-from-data', '--commission-per-lot', '7', '--account-currency', 'usd', '--slippage', '0.5', '--monte-carlo', '2000', '--mc-seed', '9', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const json = JSON.parse(r.stdout);
  const { candles } = await readCandlesFile(smc, { utcOffset: '+02:00' });
  const core = await runBacktest(candles, { strategy: 'fvg_impulsive', symbol: 'EURUSD', timeframe: 'M15', slPips: 10, tp1Pips: 10, costs: { spreadFromData: true, commissionPerLot: 7, accountCurrency: 'usd', slippagePips: 0.5 } });
  assert.deepEqual(json.statistics, JSON.parse(JSON.stringify(core.statistics)));
  assert.equal(json.costs.spreadDataCandles, candles.length);
  const mc = monteCarlo(rSequence(core.trades), { runs: 2000, seed: 9 });
  assert.deepEqual(json.monte_carlo, JSON.parse(JSON.stringify({ target: 'tp1', ...mc })));
  assert.equal(typeof json.timing.monte_carlo_ms, 'number');
  const text = await bt(['backtest', '--data', EURUSD_H1, '--strategy', 'englobante_entry', '--sl', '20', '--tp1', '20', '--spread', '1.5', '--commission', '0.6', '--monte-carlo', '1000']);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /\nCosts: spread 1\.5 pips · commission 0\.6 pips \(buys at the ask, sells judged on the ask\)\n/);
  assert.match(text.stdout, /\nMonte Carlo \(1,000 bootstrap runs of \d+ trades, R at TP1, seed 1\)\n +p5 +p50 +p95 +mean +observed\n  Max drawdown \(R\) /);
  assert.match(text.stdout, /\n  Risk of ruin: [\d.]+ % of runs lose 50 % of the account, risking 1\.00 % of the equity per trade\n/);
});

test('bad input: the flag named, exit 2, before any work', async () => {
  const base = ['--data', EURUSD_H1, '--strategy', 'englobante_entry', '--no-progress'];
  const cases: [string[], string][] = [
    [['optimize', ...base, '--tp1', '10'], 'bt: missing --sl (required with --sl-mode external): one value or a list such as 10,15,20\n'],
    [['optimize', ...base, '--sl', '10', '--tp1', '10', '--param', 'min_wait_candles=1,2'], 'bt: unknown parameter: "min_wait_candles" (englobante_entry does not read it; it reads confirm_candle, time_key)\n'],
    [['optimize', ...base, '--sl', '10,-5', '--tp1', '10'], 'bt: invalid --sl: "10,-5" (every value is a number of pips from 0.0001 to 999,999)\n'],
    [['optimize', ...base, '--sl', '10', '--tp1', '5..1'], 'bt: invalid --tp1: "5..1" (expected from..to[:step] with from ≤ to and a step > 0)\n'],
    [['optimize', ...base, '--sl', '10', '--tp1', '10', '--objective', 'sharpe'], 'bt: invalid --objective: "sharpe" (expected expectancy, profit_factor, winrate_low)\n'],
    [['optimize', ...base, '--sl', '10', '--tp1', '10', '--heatmap', 'sl_pips,tp1_pips'], 'bt: invalid --heatmap: sl_pips (the dimensions that vary are none)\n'],
    [['optimize', ...base, '--sl', '10', '--tp1', '10', '--heatmap-out', 'x.png', '--heatmap', 'a,b'], 'bt: invalid --heatmap-out: "x.png" (expected a file ending in .svg or .html)\n'],
    [['optimize', ...base, '--sl', '10', '--tp1', '10', '--spread', '-1'], 'bt: invalid --spread: "-1" (expected a number ≥ 0)\n'],
    [['optimize', ...base, '--sl', '10', '--tp1', '10', '--spread', '2000'], 'bt: invalid --spread: 2000 (expected a number of pips from 0 to 1,000)\n'],
    [['optimize', ...base, '--sl', '10', '--tp1', '10', '--commission-per-lot', '7', '--account-currency', 'GBP'], 'bt: invalid --account-currency: "GBP" (a commission in GBP on EURUSD needs a GBP exchange rate bt does not have: use EUR or USD, or give commission_pips)\n'],
    [['optimize', ...base, '--sl', '10', '--tp1', '10', '--spread-by-hour', '1,2,3'], 'bt: invalid --spread-by-hour: 3 values (expected 24 spreads in pips, for UTC hours 0 to 23, separated by commas)\n'],
    [['walk-forward', ...base, '--sl', '10', '--tp1', '10', '--in-sample', '6 months', '--out-of-sample', '30d'], 'bt: invalid --in-sample: "6 months" (expected a duration from 1min to 36500d, such as 180d, 12w, 36h or 30min)\n'],
    [['walk-forward', ...base, '--sl', '10', '--tp1', '10', '--in-sample', '600d', '--out-of-sample', '30d'], 'bt: invalid folds: the data (2017-04-19 to 2018-02-07) is not longer than one in-sample window of 600 days\n'],
    [['backtest', ...base.slice(0, 4), '--sl', '10', '--tp1', '10', '--mc-seed', '3'], 'bt: --mc-seed needs --monte-carlo\n'],
    [['backtest', ...base.slice(0, 4), '--sl', '10', '--tp1', '10', '--monte-carlo', '0'], 'bt: invalid --monte-carlo: "0" (expected a whole number from 1 to 1,000,000)\n'],
    [['backtest', ...base.slice(0, 4), '--sl', '10', '--tp1', '10', '--spread', 'typical', '--symbol', 'CORN', '--pip-size', '0.25'], 'bt: invalid --spread: "typical" (bt knows no typical spread for CORN: give the spread in pips)\n'],
  ];
  const runs = await mapLimit(cases, 4, ([args]) => bt(args));
  runs.forEach((r, i) => {
    assert.equal(r.stderr, cases[i][1], cases[i][0].join(' '));
    assert.equal(r.code, 2, cases[i][0].join(' '));
  });
});
