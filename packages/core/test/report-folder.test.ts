import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isSafeFolderName, parseResultFolderName, resultFolderName, workbookFileName } from '@bt/core/report';

const BASE = { symbol: 'EURUSD', timeframe: 'M15', strategy: 'ob_pullback_pure_rsi', from: '2024-01-01', to: '2024-01-31', slPips: 100 } as const;

test('folder name: {PAIR}_{TF}_{strategy}_{YYYYMMDD}-{YYYYMMDD}_sl{N}', () => {
  assert.equal(resultFolderName(BASE), 'EURUSD_M15_ob_pullback_pure_rsi_20240101-20240131_sl100');
  assert.equal(workbookFileName(resultFolderName(BASE)), 'EURUSD_M15_ob_pullback_pure_rsi_20240101-20240131_sl100.xlsx');
  // Internal stop: _sl0 whatever slPips says.
  assert.equal(resultFolderName({ ...BASE, slMode: 'internal', slPips: 100 }), 'EURUSD_M15_ob_pullback_pure_rsi_20240101-20240131_sl0');
  assert.equal(resultFolderName({ ...BASE, slMode: 'internal', slPips: null }), 'EURUSD_M15_ob_pullback_pure_rsi_20240101-20240131_sl0');
  // Normalised parts: upper-case pair, canonical timeframe, decimals kept, dates from Date or ms (UTC day).
  assert.equal(
    resultFolderName({ ...BASE, symbol: ' btc-usd ', timeframe: '15m', slPips: 12.5, from: new Date('2024-03-01T00:00:00Z'), to: Date.parse('2024-03-07T23:59:00Z') }),
    'BTC-USD_M15_ob_pullback_pure_rsi_20240301-20240307_sl12.5',
  );
  assert.equal(resultFolderName({ ...BASE, timeframe: 'd', from: '2024-01-05T10:00:00Z', to: '2024-01-05' }), 'EURUSD_D1_ob_pullback_pure_rsi_20240105-20240105_sl100');
  assert.equal(resultFolderName({ ...BASE, strategy: 'gpt_3f2a-9c' }), 'EURUSD_M15_gpt_3f2a-9c_20240101-20240131_sl100');
});

test('folder name refuses unsafe or malformed parts with the part named', () => {
  const refuse = (parts: Partial<Parameters<typeof resultFolderName>[0]>, pattern: RegExp) =>
    assert.throws(() => resultFolderName({ ...BASE, ...parts }), pattern);
  refuse({ symbol: 'EUR/USD' }, /invalid symbol: "EUR\/USD"/);
  refuse({ symbol: '../etc' }, /invalid symbol/);
  refuse({ symbol: 'EUR_USD' }, /invalid symbol/);
  refuse({ symbol: '' }, /invalid symbol/);
  refuse({ symbol: 'EURUSD.' }, /invalid symbol/);
  refuse({ timeframe: 'M 5' }, /invalid timeframe: "M 5"/);
  refuse({ timeframe: 'M5/..' }, /invalid timeframe/);
  refuse({ strategy: 'ob pullback' }, /invalid strategy: "ob pullback"/);
  refuse({ strategy: 'ob__pullback' }, /invalid strategy/);
  refuse({ strategy: '_ob' }, /invalid strategy/);
  refuse({ strategy: 'ob/../../x' }, /invalid strategy/);
  refuse({ strategy: 'stratégie' }, /invalid strategy/);
  refuse({ strategy: 'x'.repeat(121) }, /invalid strategy/);
  refuse({ slPips: 0 }, /invalid slPips: 0/);
  refuse({ slPips: -5 }, /invalid slPips: -5/);
  refuse({ slPips: Number.NaN }, /invalid slPips: NaN/);
  refuse({ slPips: null }, /invalid slPips: null/);
  refuse({ slMode: 'inside' as never }, /invalid slMode: "inside"/);
  refuse({ from: '2024-02-01' }, /invalid period: 20240201-20240131/);
  refuse({ from: '01/02/2024' }, /invalid from: "01\/02\/2024"/);
  refuse({ to: Number.NaN }, /invalid to/);
  assert.throws(() => workbookFileName('../x'), /invalid result folder/);
  assert.throws(() => workbookFileName('a/b'), /invalid result folder/);
});

test('parse is the inverse of the name', () => {
  for (const parts of [
    BASE,
    { ...BASE, slMode: 'internal' as const },
    { ...BASE, symbol: 'BTC-USD', timeframe: 'H4', strategy: 'fvg_pullback_tendance_ema_rsi', slPips: 12.5 },
  ]) {
    const folder = resultFolderName(parts);
    const parsed = parseResultFolderName(folder);
    assert.equal(parsed.symbol, parts.symbol);
    assert.equal(parsed.timeframe, parts.timeframe);
    assert.equal(parsed.strategy, parts.strategy);
    assert.equal(parsed.from, '2024-01-01');
    assert.equal(parsed.to, '2024-01-31');
    assert.equal(parsed.slPips, 'slMode' in parts && parts.slMode === 'internal' ? 0 : parts.slPips);
    assert.equal(parsed.slMode, 'slMode' in parts ? parts.slMode : 'external');
    assert.equal(parsed.suffix, null);
  }
});

test('parse is tolerant: case, missing sl part, suffix, dashed dates, date-like strategy words', () => {
  assert.deepEqual(parseResultFolderName('eurusd_m5_englobante_entry_rsi_ema_20240101-20240131'), {
    symbol: 'EURUSD', timeframe: 'M5', strategy: 'englobante_entry_rsi_ema', from: '2024-01-01', to: '2024-01-31', slPips: null, slMode: null, suffix: null,
  });
  const withSuffix = parseResultFolderName('XAUUSD_H1_fvg_impulsive_20240101-20240131_sl0_2');
  assert.equal(withSuffix.slMode, 'internal');
  assert.equal(withSuffix.suffix, '2');
  assert.equal(parseResultFolderName('GER40_M15_ob_pullback_gap_2024-01-01-2024-01-31_sl50').to, '2024-01-31');
  // The last date range wins: a strategy word shaped like a range stays in the strategy.
  const odd = parseResultFolderName('EURUSD_M5_gpt_20230101-20230102_20240101-20240131_sl10');
  assert.equal(odd.strategy, 'gpt_20230101-20230102');
  assert.equal(odd.from, '2024-01-01');
});

test('parse refuses what is not a result folder', () => {
  assert.throws(() => parseResultFolderName('EURUSD_M5_20240101-20240131_sl10'), /invalid result folder: .*no date range/);
  assert.throws(() => parseResultFolderName('EURUSD_M5_ob_2024-13-01-2024-01-31'), /not a calendar date/);
  assert.throws(() => parseResultFolderName('../EURUSD_M5_ob_20240101-20240131_sl10'), /unsafe characters/);
  assert.throws(() => parseResultFolderName('EURUSD_M5_ob..x_20240101-20240131_sl10'), /unsafe characters/);
  assert.throws(() => parseResultFolderName(''), /invalid result folder/);
  assert.equal(isSafeFolderName('EURUSD_M5_ob_20240101-20240131_sl10'), true);
  assert.equal(isSafeFolderName('a b'), false);
});
