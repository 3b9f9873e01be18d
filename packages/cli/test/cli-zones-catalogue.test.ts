// bt zones (core's listZones), bt strategies, bt params, bt symbols: the catalogue and the zones
// export as tables, CSV and JSON, with their bad inputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listZones } from '@bt/core/backtest';
import { paramDefaults, STRATEGIES, SYMBOLS } from '@bt/core/catalogue';
import { readCandlesFile } from '@bt/core/node';
import { bt, EURUSD_H1, fixture, readerMessage, tempDir, mapLimit } from './helpers.js';

test('zones --json: core listZones for the short pattern names, and for a strategy key', async () => {
  const { candles } = await readCandlesFile(EURUSD_H1);
  for (const [name, pattern] of [['ob', 'order_block'], ['ob_gap', 'order_block_gap'], ['fvg', 'fvg'], ['engulfing', 'engulfing'], ['fvg_impulsive', 'fvg_impulsive']]) {
    const r = await bt(['zones', '--data', EURUSD_H1, '--pattern', name, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.equal(json.pattern, pattern);
    assert.deepEqual(json.zones, listZones(candles, pattern, {}, { symbol: 'EURUSD' }), name);
    assert.equal(json.count, json.zones.length);
  }
  const strategy = await bt(['zones', '--data', EURUSD_H1, '--pattern', 'fvg_pullback_multi_rsi', '--param', 'rsi_threshold=45', '--json']);
  assert.deepEqual(JSON.parse(strategy.stdout).zones, listZones(candles, 'fvg_pullback_multi_rsi', { rsi_threshold: '45' }, { symbol: 'EURUSD' }));
});

test('zones --csv: one row per zone with ISO times; the table ends with counts', async () => {
  const csv = await bt(['zones', '--data', EURUSD_H1, '--pattern', 'ob', '--param', 'ob_side=bullish', '--csv']);
  assert.equal(csv.code, 0);
  const lines = csv.stdout.trimEnd().split('\n');
  assert.equal(lines[0], 'kind,side,top,bottom,formed_index,formed_at,confirmed_index,confirmed_at,filled_index,filled_at,mitigated_index,mitigated_at');
  assert.ok(lines.slice(1).every((l) => l.startsWith('order_block,buy,')));
  assert.match(lines[1], /^order_block,buy,[\d.]+,[\d.]+,\d+,\d{4}-\d\d-\d\dT\d\d:00:00\.000Z,/);
  const table = await bt(['zones', '--data', EURUSD_H1, '--pattern', 'ob', '--param', 'ob_side=bullish']);
  assert.match(table.stdout, new RegExp(`\\n${lines.length - 1} zones \\(${lines.length - 1} buy, 0 sell\\), \\d+ filled · order_block on ${EURUSD_H1.replace(/[.]/g, '\\.')}\\n$`));
});

test('zones bad input: pattern, parameter, file, data, output choice', async () => {
  const tmp = tempDir();
  try {
    const bad = join(tmp.dir, 'bad.csv');
    writeFileSync(bad, 'Datetime,Open,High,Low,Close,Volume\n2024-01-01 00:00:00,1.1,1.2,1.0,1.15,10\n');
    const cases: [string[], number, string][] = [
      [['--pattern', 'gap'], 2, 'bt: invalid --pattern: "gap" (expected fvg, ob, ob_gap, engulfing, fvg_impulsive or an official strategy key)\n'],
      [['--param', 'min_pip=2'], 2, 'bt: unknown parameter: "min_pip" (expected one of min_wait_candles, max_wait_candles, allow_multiple_entries, min_overlap_ratio, rsi_key, rsi_threshold, ema_fast, ema_slow, ema_key, min_pips, max_touch, ob_side, time_key, confirm_candle; did you mean min_pips?)\n'],
      [['--param', 'ob_side=up'], 2, 'bt: invalid ob_side: "up" (expected one of both, bullish, bearish)\n'],
      [['--data', fixture('nope.csv')], 1, `bt: cannot read ${fixture('nope.csv')}: no such file\n`],
      [['--data', bad], 1, `bt: ${await readerMessage(bad)}
`],
      [['--json', '--csv'], 2, 'bt: give --json or --csv, not both\n'],
    ];
    const argsOf = (change: string[]) => {
      const args = ['zones', '--data', EURUSD_H1, '--pattern', 'fvg'];
      for (let i = 0; i < change.length; i++) {
        const at = args.indexOf(change[i]);
        if (at >= 0 && change[i + 1] !== undefined && !change[i + 1].startsWith('--')) args[at + 1] = change[++i];
        else if (change[i + 1] !== undefined && !change[i + 1].startsWith('--')) args.push(change[i], change[++i]);
        else args.push(change[i]);
      }
      return args;
    };
    const runs = await mapLimit(cases, 4, ([change]) => bt(argsOf(change)));
    cases.forEach(([change, code, stderr], i) => assert.deepEqual(runs[i], { code, stdout: '', stderr }, change.join(' ')));
  } finally {
    tmp.remove();
  }
});

test('strategies, params and symbols --json are the catalogue', async () => {
  const strategies = JSON.parse((await bt(['strategies', '--json'])).stdout);
  assert.equal(strategies.command, 'strategies');
  assert.deepEqual(strategies.strategies, JSON.parse(JSON.stringify(STRATEGIES)));
  const params = JSON.parse((await bt(['params', 'englobante_entry_rsi', '--json'])).stdout);
  assert.deepEqual(params.params.map((p: { name: string }) => p.name), STRATEGIES.find((s) => s.key === 'englobante_entry_rsi')!.params);
  assert.equal(params.params.find((p: { name: string }) => p.name === 'rsi_threshold').default, paramDefaults('englobante_entry_rsi').rsi_threshold);
  assert.equal(params.params.find((p: { name: string }) => p.name === 'rsi_threshold').default, 50);
  const symbols = JSON.parse((await bt(['symbols', '--json'])).stdout);
  assert.deepEqual(symbols.symbols, JSON.parse(JSON.stringify(SYMBOLS)));
  const metals = JSON.parse((await bt(['symbols', '--class', 'metal', '--json'])).stdout);
  assert.deepEqual(metals.symbols.map((s: { symbol: string }) => s.symbol), SYMBOLS.filter((s) => s.assetClass === 'metal').map((s) => s.symbol));
});

test('strategies, params and symbols as tables, and their bad input', async () => {
  const table = await bt(['strategies']);
  assert.equal(table.code, 0);
  assert.equal(table.stdout.split('\n').filter((l) => /^(ob|fvg|englobante)_/.test(l)).length, 24);
  const params = await bt(['params', 'ob_pullback_gap']);
  assert.match(params.stdout, /^ob_side +string +both +both\|bullish\|bearish +advanced +Sens des order blocks$/m);
  assert.deepEqual(await bt(['params', 'ob_pullback']), { code: 2, stdout: '', stderr: 'bt: invalid strategy: "ob_pullback" (not one of the 24 official strategies; did you mean ob_pullback_gap?)\n' });
  assert.deepEqual(await bt(['symbols', '--class', 'stocks']), { code: 2, stdout: '', stderr: 'bt: invalid --class: "stocks" (expected one of forex, metal, energy, agriculture, index, crypto)\n' });
});
