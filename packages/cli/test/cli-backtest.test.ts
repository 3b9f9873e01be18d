// bt backtest: the summary, the JSON result (the same figures core computes in-process), the
// workbook, and every kind of bad input with its exact message and exit code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { backtestResultJson, runBacktest } from '@bt/core/backtest';
import { readCandlesFile } from '@bt/core/node';
import { readWorkbookMeta } from '@bt/core/report';
import { candlesFromColumns, type CandleFileError } from '@bt/core/candles';
import { writeCandlesFile } from '@bt/core/node';
import { bt, EURUSD_H1, fixture, readerError, readerMessage, tempDir, mapLimit } from './helpers.js';

const fixOf = (error: CandleFileError, i: number) => error.problems[i].fix;

const RUN = ['backtest', '--data', EURUSD_H1, '--strategy', 'fvg_pullback_multi_rsi', '--sl', '20', '--tp1', '20', '--tp2', '40'];

test('the summary shows the run, the Global sheet, the sessions and the golden hours', async () => {
  const r = await bt([...RUN, '--param', 'rsi_threshold=45']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^EURUSD H1 · fvg_pullback_multi_rsi · 2017-04-19 → 2018-02-07 · SL 20 \/ TP1 20 \/ TP2 40 pips\n/);
  for (const section of ['\nGlobal\n', '\nSessions (UTC)\n', '\nGolden hours (UTC, at least ']) assert.ok(r.stdout.includes(section), section);
  for (const row of ['Winrate TP1', 'IC95 bas TP1', 'Asie', 'Londres/New York', 'Hors session']) assert.ok(r.stdout.includes(row), row);
});

test('--json is core runBacktest result plus input, timing.load_ms/engine_ms/report_ms', async () => {
  const r = await bt([...RUN, '--param', 'min_wait_candle=2', '--params-json', '{"rsi_threshold": 45}', '--from', '2017-06-01', '--to', '2017-12-31', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const json = JSON.parse(r.stdout);
  assert.equal(json.command, 'backtest');
  assert.equal(json.schema_version, 1);
  for (const key of ['load_ms', 'engine_ms', 'report_ms', 'write_ms', 'total_ms']) assert.equal(typeof json.timing[key], 'number', key);
  assert.ok(json.timing.load_ms > 0 && json.timing.engine_ms > 0);
  assert.deepEqual(json.input, { data: EURUSD_H1, format: 'official', candles: 5000, symbol: 'EURUSD', symbol_from: 'file name', timeframe: 'H1', timeframe_from: 'data', ltf: null, warnings: [] });
  assert.equal(json.workbook_path, null);
  assert.equal(json.params.min_wait_candles, 2);
  assert.equal(json.params.rsi_threshold, 45);

  const { candles } = await readCandlesFile(EURUSD_H1);
  const core = backtestResultJson(
    await runBacktest(candles, {
      strategy: 'fvg_pullback_multi_rsi', params: { min_wait_candles: 2, rsi_threshold: 45 }, symbol: 'EURUSD', slPips: 20, tp1Pips: 20, tp2Pips: 40,
      from: Date.UTC(2017, 5, 1), to: Date.UTC(2017, 11, 31, 23, 59, 59, 999),
    }),
  );
  const expected = JSON.parse(JSON.stringify(core));
  for (const key of ['statistics', 'golden_hours', 'trades', 'counts', 'folder', 'config', 'from', 'to', 'warnings']) assert.deepEqual(json[key], expected[key], key);
  assert.equal(json.folder, 'EURUSD_H1_fvg_pullback_multi_rsi_20170601-20171231_sl20');
});

test('--out writes the workbook under DIR/{folder}/ (internal stop: _sl0)', async () => {
  const tmp = tempDir();
  try {
    const r = await bt(['backtest', '--data', EURUSD_H1, '--strategy', 'englobante_entry', '--sl-mode', 'internal', '--out', tmp.dir]);
    assert.equal(r.code, 0, r.stderr);
    const path = join(tmp.dir, 'EURUSD_H1_englobante_entry_20170419-20180207_sl0', 'EURUSD_H1_englobante_entry_20170419-20180207_sl0.xlsx');
    assert.ok(r.stdout.endsWith(`\nWorkbook: ${path}\n`));
    const meta = await readWorkbookMeta(readFileSync(path));
    assert.deepEqual(meta.sheets.map((s) => s.name), ['Config', 'Global', 'Sessions', 'Par_Heure', 'Jour_Semaine', 'TP2_Global', 'Trades']);
  } finally {
    tmp.remove();
  }
});

test('symbol from the file name when the flag does not say it; unknown symbols need --pip-size', async () => {
  // freqtrade's UNITTEST/BTC: an instrument the catalogue cannot know (fixtures/README.md).
  const unknown = fixture('freqtrade/UNITTEST_BTC-30m.json');
  const noPip = await bt(['backtest', '--data', unknown, '--strategy', 'fvg_impulsive', '--sl', '20', '--tp1', '20']);
  assert.deepEqual(noPip, { code: 2, stdout: '', stderr: 'bt: invalid symbol: "UNITTESTBTC" (not in the catalogue, so its pip size is unknown: give --pip-size)\n' });
  const ok = await bt(['backtest', '--data', unknown, '--strategy', 'fvg_impulsive', '--sl', '20', '--tp1', '20', '--pip-size', '0.00001', '--json']);
  assert.equal(ok.code, 0, ok.stderr);
  const json = JSON.parse(ok.stdout);
  assert.equal(json.symbol, 'UNITTESTBTC');
  assert.equal(json.input.symbol_from, 'file name');
  assert.equal(json.timeframe, 'M30');
  assert.equal(json.pipSize, 0.00001);
  // A catalogue instrument named by the file (ETH_BTC-5m.json is ETH-BTC) takes the catalogue's pip.
  const eth = await bt(['backtest', '--data', fixture('freqtrade/ETH_BTC-5m.json'), '--strategy', 'fvg_impulsive', '--sl', '20', '--tp1', '20', '--json']);
  assert.equal(eth.code, 0, eth.stderr);
  assert.deepEqual([JSON.parse(eth.stdout).symbol, JSON.parse(eth.stdout).pipSize], ['ETH-BTC', 0.000001]);
});

test('bad input: exact message on stderr, exit 1 for files and data, 2 for flags', async () => {
  const tmp = tempDir();
  const malformed = join(tmp.dir, 'EURUSD_H1_broken.csv');
  writeFileSync(malformed, 'Datetime,Open,High,Low,Close,Volume\n2024-01-01 00:00:00+00:00,1.1,1.2,1.0,1.15,10\n2024-01-01 01:00:00+00:00,1.1,abc,1.0,1.15,10\n');
  try {
    const cases: [string[], number, string][] = [
      [['--data', join(tmp.dir, 'missing.csv')], 1, `bt: cannot read ${join(tmp.dir, 'missing.csv')}: no such file\n`],
      [['--data', malformed], 1, `bt: ${malformed}: 1 problem in candle file\n  line 3, column High: "abc" is not a number\n    fix: ${fixOf(await readerError(malformed), 0)}\n`],
      [['--data', fixture('bad/high-below-low.csv'), '--symbol', 'EURUSD'], 1, `bt: ${await readerMessage(fixture('bad/high-below-low.csv'))}\n`],
      [['--strategy', 'fvg_pulback_multi'], 2, 'bt: invalid strategy: "fvg_pulback_multi" (not one of the 24 official strategies; did you mean fvg_pullback_multi?)\n'],
      [['--param', 'min_wait_candels=2'], 2, 'bt: unknown parameter: "min_wait_candels" (fvg_pullback_multi reads min_wait_candles, max_wait_candles, allow_multiple_entries, min_overlap_ratio, max_touch, min_pips, confirm_candle, time_key; did you mean min_wait_candles?)\n'],
      [['--param', 'rsi_threshold=30'], 2, 'bt: unknown parameter: "rsi_threshold" (fvg_pullback_multi does not read it; it reads min_wait_candles, max_wait_candles, allow_multiple_entries, min_overlap_ratio, max_touch, min_pips, confirm_candle, time_key)\n'],
      [['--param', 'max_touch=0'], 2, 'bt: invalid max_touch: "0" (expected an integer ≥ 1)\n'],
      [['--param', 'max_touch'], 2, 'bt: invalid parameter: "max_touch" (expected name=value, e.g. min_wait_candles=3)\n'],
      [['--params-json', '{"max_touch": '], 2, 'bt: invalid --params-json: "{\\"max_touch\\": " (expected a JSON object: Unexpected end of JSON input)\n'],
      [['--from', '2017-02-30'], 2, 'bt: invalid --from: "2017-02-30" (expected a UTC date YYYY-MM-DD or YYYY-MM-DDTHH:MM)\n'],
      [['--to', 'yesterday'], 2, 'bt: invalid --to: "yesterday" (expected a UTC date YYYY-MM-DD or YYYY-MM-DDTHH:MM)\n'],
      [['--from', '2018-01-01', '--to', '2017-01-01'], 2, 'bt: invalid --to: "2017-01-01" (expected a date on or after --from 2018-01-01)\n'],
      [['--sl', '-5'], 2, 'bt: invalid --sl: "-5" (expected a number of pips from 0.0001 to 999,999)\n'],
      [['--timeframe', 'M7'], 2, 'bt: invalid --timeframe: M7 (expected one of M1, M5, M15, M30, H1, H4, D1)\n'],
      [['--timeframe', 'M15'], 1, `bt: ${await readerMessage(EURUSD_H1, { timeframe: 'M15' })}\n`],
      [['--utc-offset', '+25:00'], 2, 'bt: invalid --utc-offset: "+25:00" (expected an offset such as +02:00, -05:00, +0530, Z or UTC, or minutes east of UTC)\n'],
    ];
    const argsOf = (change: string[]) => {
      const args = ['backtest', '--data', EURUSD_H1, '--strategy', 'fvg_pullback_multi', '--sl', '20', '--tp1', '20'];
      for (let i = 0; i < change.length; i += 2) {
        const at = args.indexOf(change[i]);
        if (at >= 0 && change[i + 1] !== undefined) args[at + 1] = change[i + 1];
        else args.push(...change.slice(i, i + 2));
      }
      return args;
    };
    const runs = await mapLimit(cases, 4, ([change]) => bt(argsOf(change)));
    cases.forEach(([change, code, stderr], i) => assert.deepEqual(runs[i], { code, stdout: '', stderr }, change.join(' ')));
    const missingSl = await bt(['backtest', '--data', EURUSD_H1, '--strategy', 'fvg_pullback_multi']);
    assert.deepEqual(missingSl, { code: 2, stdout: '', stderr: 'bt: missing --sl (required with --sl-mode external)\n' });
  } finally {
    tmp.remove();
  }
});

test('--ltf: smaller candles of the same symbol resolve ambiguous trades; a larger timeframe is refused', async () => {
  const tmp = tempDir();
  try {
    // H1 candles built from the smc M15 file (broker time +02:00), so the M15 file is the lower timeframe of the same market.
    const m15Path = fixture('smc/EURUSD_15M.csv');
    const { candles: m15 } = await readCandlesFile(m15Path, { utcOffset: '+02:00', symbol: 'EURUSD' });
    const hours = new Map<number, number[]>();
    for (let i = 0; i < m15.length; i++) {
      const h = Math.floor(m15.time[i] / 3_600_000) * 3_600_000;
      if (!hours.has(h)) hours.set(h, []);
      hours.get(h)!.push(i);
    }
    const keys = [...hours.keys()].sort((a, b) => a - b);
    const col = (f: (rows: number[]) => number) => Float64Array.from(keys, (h) => f(hours.get(h)!));
    const h1 = candlesFromColumns({
      time: Float64Array.from(keys),
      open: col((r) => m15.open[r[0]]),
      high: col((r) => Math.max(...r.map((i) => m15.high[i]))),
      low: col((r) => Math.min(...r.map((i) => m15.low[i]))),
      close: col((r) => m15.close[r[r.length - 1]]),
      volume: col((r) => r.reduce((n, i) => n + m15.volume[i], 0)),
    });
    const h1Path = join(tmp.dir, 'EURUSD_H1_from-m15.csv');
    await writeCandlesFile(h1Path, h1);
    const r = await bt(['backtest', '--data', h1Path, '--strategy', 'fvg_impulsive', '--sl', '5', '--tp1', '5', '--ltf', m15Path, '--utc-offset', '+02:00', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    const { candles: h1Read } = await readCandlesFile(h1Path);
    const core = await runBacktest(h1Read, { strategy: 'fvg_impulsive', symbol: 'EURUSD', slPips: 5, tp1Pips: 5, ltf: m15 });
    assert.equal(json.ambiguity.lowerTimeframe, 'M15');
    assert.ok(json.ambiguity.count > 0 && json.ambiguity.resolved > 0, JSON.stringify(json.ambiguity));
    assert.deepEqual(json.ambiguity, JSON.parse(JSON.stringify(core.ambiguity)));
    assert.equal(json.input.ltf, m15Path);

    const refused = await bt(['backtest', '--data', m15Path, '--utc-offset', '+02:00', '--strategy', 'fvg_impulsive', '--sl', '5', '--tp1', '5', '--ltf', h1Path]);
    assert.deepEqual(refused, { code: 1, stdout: '', stderr: "bt: invalid ltf: its candles (H1) are not smaller than the run's (M15)\n" });
  } finally {
    tmp.remove();
  }
});
