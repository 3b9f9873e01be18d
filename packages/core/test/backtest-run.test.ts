import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runBacktest, backtestResultJson, readWorkbookMeta, readWorkbookSheet, ENGINE_VERSION, type SignalStrategy, type Candles } from '@bt/core';
import { readCandlesFile } from '@bt/core/node';

const fixtures = join(import.meta.dirname, '../../../fixtures');
let h1: Candles | undefined;
async function eurusdH1(): Promise<Candles> {
  h1 ??= (await readCandlesFile(join(fixtures, 'official/EURUSD_H1_2017-2018.csv'), { symbol: 'EURUSD' })).candles;
  return h1;
}
const DAY = 86_400_000;

test('runBacktest: the spec result (xlsx_result, golden_hours), statistics, trades, config, timing', async () => {
  const candles = await eurusdH1();
  let clock = 0;
  const r = await runBacktest(
    candles,
    { strategy: 'fvg_pullback_multi', symbol: 'eurusd', slPips: 20, tp1Pips: 20, tp2Pips: 40, run: { runId: 'abc', userId: 42, runSeq: 7 } },
    { now: () => (clock += 5) },
  );
  assert.equal(r.xlsx_result, 'EURUSD_H1_fvg_pullback_multi_20170419-20180207_sl20/EURUSD_H1_fvg_pullback_multi_20170419-20180207_sl20.xlsx');
  assert.equal(r.folder, r.xlsx_result.split('/')[0]);
  assert.deepEqual(Object.keys(r.golden_hours).slice(0, 2), ['winrate_global', 'golden_hours']);
  assert.equal(r.golden_hours, r.statistics.goldenHours);
  for (const h of r.golden_hours.golden_hours) assert.deepEqual(Object.keys(h).slice(0, 3), ['hour', 'TP1', 'TP2']);
  assert.equal(r.statistics.global.trades, r.trades.length);
  assert.ok(r.trades.length > 100);
  assert.deepEqual(r.timing, { engine_ms: 5, report_ms: 5 }, 'the injected clock is read three times');
  assert.equal(r.workbook, undefined);
  const config = new Map(r.config.map((c) => [c.metric, c.value]));
  for (const [metric, value] of [['strategy', 'fvg_pullback_multi'], ['symbol', 'EURUSD'], ['timeframe', 'H1'], ['sl_mode', 'external'], ['sl_pips', 20], ['tp1_pips', 20], ['tp2_pips', 40], ['min_wait_candles', 3], ['max_wait_candles', 20], ['engine_version', ENGINE_VERSION], ['run_id', 'abc'], ['user_id', 42], ['run_seq', 7], ['start_date', '2017-04-19'], ['end_date', '2018-02-07']] as const) {
    assert.equal(config.get(metric), value, metric);
  }
  assert.match(String(config.get('sessions_utc')), /^Asie 00-07, Londres 08-12/);
  const json = JSON.parse(JSON.stringify(backtestResultJson(r)));
  assert.equal(json.trades.length, r.trades.length);
  assert.equal(json.xlsx_result, r.xlsx_result);
});

test('runBacktest: the workbook reads back with the same trades and config', async () => {
  const candles = await eurusdH1();
  const r = await runBacktest(candles, { strategy: 'englobante_entry_rsi', symbol: 'EURUSD', slPips: 15, tp1Pips: 15, tp2Pips: 30 }, { workbook: true, createdAt: 0 });
  assert.ok(r.workbook && r.workbook.length > 1000);
  const meta = await readWorkbookMeta(r.workbook);
  assert.deepEqual(meta.sheets.map((s: { name: string } | string) => (typeof s === 'string' ? s : s.name)), ['Config', 'Global', 'Sessions', 'Par_Heure', 'Jour_Semaine', 'TP2_Global', 'Trades']);
  const trades = await readWorkbookSheet(r.workbook, 'Trades', { limit: 10_000 });
  assert.equal(trades.rows.length, r.trades.length);
  const config = await readWorkbookSheet(r.workbook, 'Config', { limit: 1000 });
  const rsi = config.rows.find((row: unknown[]) => row[0] === 'rsi_threshold');
  assert.deepEqual(rsi, ['rsi_threshold', 50], 'the engulfing family reads RSI 50 by default');
  assert.equal(JSON.stringify(backtestResultJson(r)).includes('"workbook"'), false);
});

test('period: candles before `from` warm up zones and indicators, no trade enters before it; nothing after `to` is used', async () => {
  const candles = await eurusdH1();
  const request = { strategy: 'fvg_pullback_tendance_ema', symbol: 'EURUSD', slPips: 20, tp1Pips: 20, tp2Pips: 40 } as const;
  const full = await runBacktest(candles, request);
  const from = Date.UTC(2017, 8, 1);
  const to = Date.UTC(2017, 9, 11, 12); // a Wednesday noon: trades are running
  const part = await runBacktest(candles, { ...request, from, to });
  assert.equal(part.folder, 'EURUSD_H1_fvg_pullback_tendance_ema_20170901-20171011_sl20');
  assert.ok(part.trades.length > 5);
  for (const t of part.trades) {
    assert.ok(t.entryTime >= from && t.entryTime <= to, `entry ${new Date(t.entryTime).toISOString()} outside the period`);
    for (const exit of [t.tp1Time, t.tp2Time, t.slTime]) assert.ok(exit === null || exit <= to);
  }
  // Same entries as the full run over that window: warm-up gives the same zones and EMA values.
  const key = (t: { entryTime: number; side: string; entryPrice: number }) => `${t.entryTime} ${t.side} ${t.entryPrice}`;
  assert.deepEqual(part.trades.map(key), full.trades.filter((t) => t.entryTime >= from && t.entryTime <= to).map(key));
  assert.ok(part.trades.some((t) => t.signalTime < from), 'a zone detected during warm-up fills inside the period');
  // Exits stop at `to`: a trade the full run closes later is open here.
  const later = full.trades.filter((t) => t.entryTime >= from && t.entryTime <= to && Math.max(t.slTime ?? 0, t.tp2Time ?? 0) > to);
  assert.ok(later.length > 0, 'some trades of the period close after it');
  for (const t of later) assert.equal(part.trades.find((p) => key(p) === key(t))!.tp2Result, 'open');
  assert.equal(part.counts.warmupCandles, candles.time.findIndex((t) => t >= from));
  const empty = await runBacktest(candles, { ...request, from: Date.UTC(2019, 0, 1), to: Date.UTC(2019, 0, 31) });
  assert.equal(empty.trades.length, 0);
  assert.match(empty.warnings.join('\n'), /no candle in the period/);
  await assert.rejects(runBacktest(candles, { ...request, from: to, to: from }), /invalid period/);
});

test('internal stops: folder _sl0, SL at the zone edge, TP1 1R and TP2 2R', async () => {
  const candles = await eurusdH1();
  const r = await runBacktest(candles, { strategy: 'ob_pullback_pure', symbol: 'EURUSD', slMode: 'internal', from: Date.UTC(2017, 5, 1), to: Date.UTC(2017, 7, 31) });
  assert.equal(r.folder, 'EURUSD_H1_ob_pullback_pure_20170601-20170831_sl0');
  assert.ok(r.trades.length > 10);
  for (const t of r.trades) {
    const risk = Math.abs(t.orderPrice - t.sl);
    assert.ok(Math.abs(Math.abs(t.tp1 - t.orderPrice) - risk) < 1e-9 && Math.abs(Math.abs(t.tp2 - t.orderPrice) - 2 * risk) < 1e-9);
    if (t.tp2Result === 'win') assert.equal(t.rTp2, 2);
  }
  const config = new Map(r.config.map((c) => [c.metric, c.value]));
  assert.deepEqual([config.get('sl_mode'), config.get('sl_pips'), config.get('tp1_pips'), config.get('tp2_pips')], ['internal', null, '1R', '2R']);
});

test('parameters: aliases, unknown names refused (CLI) or dropped with a warning (server), bad values refused', async () => {
  const candles = await eurusdH1();
  const base = { strategy: 'fvg_pullback_multi_rsi', symbol: 'EURUSD', slPips: 20, tp1Pips: 20, from: Date.UTC(2017, 5, 1), to: Date.UTC(2017, 6, 1) };
  const aliased = await runBacktest(candles, { ...base, params: { min_wait_candle: 2, RSI: 'RSI_14' } });
  assert.equal(aliased.params.min_wait_candles, 2);
  assert.equal(aliased.params.rsi_key, 'RSI_14');
  await assert.rejects(runBacktest(candles, { ...base, params: { ema_fast: 20 } }), /unknown parameter/);
  const dropped = await runBacktest(candles, { ...base, params: { ema_fast: 20 }, unknownParams: 'warn' });
  assert.match(dropped.warnings.join('\n'), /ema_fast/);
  await assert.rejects(runBacktest(candles, { ...base, params: { min_overlap_ratio: 'beaucoup' } }), /min_overlap_ratio/);
  await assert.rejects(runBacktest(candles, { ...base, symbol: 'NOPE' }), /invalid symbol.*pip size/);
  const explicitPip = await runBacktest(candles, { ...base, symbol: 'NOPE', pipSize: 0.0001 });
  assert.equal(explicitPip.trades.length, (await runBacktest(candles, base)).trades.length);
  await assert.rejects(runBacktest(candles, { ...base, slPips: undefined }), /invalid sl_pips: missing/);
  await assert.rejects(runBacktest(candles, { ...base, strategy: 'fvg_pulback_multi' }), /invalid strategy.*did you mean fvg_pullback_multi/);
});

test('a signal function runs through the same pipeline as the official strategies', async () => {
  const candles = await eurusdH1();
  const crossUp: SignalStrategy = {
    key: 'ema_cross_test',
    params: ['period'],
    filters: ['rsi'],
    signals(c, params) {
      const period = Number(params.period ?? 20);
      const out: { index: number; side: 'buy' | 'sell' }[] = [];
      let ema = c.close[0];
      const k = 2 / (period + 1);
      let above = false;
      for (let i = 1; i < c.length; i++) {
        ema = c.close[i] * k + ema * (1 - k);
        const now = c.close[i] > ema;
        if (i > period && now !== above) out.push({ index: i, side: now ? 'buy' : 'sell' });
        above = now;
      }
      return out;
    },
  };
  const r = await runBacktest(candles, { strategy: crossUp, symbol: 'EURUSD', slPips: 20, tp1Pips: 20, params: { period: 30, rsi_threshold: 55 } });
  assert.equal(r.strategy, 'ema_cross_test');
  assert.equal(r.params.period, 30);
  assert.ok(r.trades.length > 20);
  assert.match(r.folder, /^EURUSD_H1_ema_cross_test_/);
  assert.equal(new Map(r.config.map((c) => [c.metric, c.value])).get('strategy_source'), 'signal function');
  for (const t of r.trades) assert.ok(t.entryTime > t.signalTime);
});
