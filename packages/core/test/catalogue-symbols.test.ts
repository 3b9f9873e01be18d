import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SYMBOLS, findSymbol, getSymbol, normalizeSymbol, pipSize, symbolFilterOptions } from '@bt/core/catalogue';

test('about 55 instruments, each unique, with a label, an asset class and a positive pip size', () => {
  assert.ok(SYMBOLS.length >= 50 && SYMBOLS.length <= 60, `${SYMBOLS.length} symbols`);
  assert.equal(new Set(SYMBOLS.map((s) => s.symbol)).size, SYMBOLS.length);
  for (const s of SYMBOLS) {
    assert.match(s.symbol, /^[A-Z0-9-]+$/, s.symbol);
    assert.ok(s.label.trim().length > 0, `${s.symbol} has a label`);
    assert.ok(Number.isFinite(s.pipSize) && s.pipSize > 0, `${s.symbol} pip ${s.pipSize}`);
  }
  const classes = new Set(SYMBOLS.map((s) => s.assetClass));
  assert.deepEqual([...classes].sort(), ['agriculture', 'crypto', 'energy', 'forex', 'index', 'metal']);
});

test('pip sizes of the spec: 0.0001 forex, 0.01 JPY pairs, 0.1 gold, 1 indices', () => {
  for (const s of SYMBOLS.filter((x) => x.assetClass === 'forex')) {
    assert.equal(s.pipSize, s.symbol.includes('JPY') ? 0.01 : 0.0001, s.symbol);
  }
  for (const s of SYMBOLS.filter((x) => x.assetClass === 'index')) assert.equal(s.pipSize, 1, s.symbol);
  assert.equal(pipSize('XAUUSD'), 0.1);
  assert.equal(pipSize('EURUSD'), 0.0001);
  assert.equal(pipSize('GBPJPY'), 0.01);
  assert.equal(pipSize('GER40'), 1);
});

test('the instruments the issue names are all there', () => {
  const wanted = [
    'EURUSD', 'GBPUSD', 'USDJPY', 'USDCHF', 'AUDUSD', 'USDCAD', 'NZDUSD', 'EURGBP', 'EURJPY', 'GBPJPY',
    'XAUUSD', 'XAGUSD', 'XPTUSD', 'XPDUSD', 'COPPER', 'WTI', 'BRENT', 'NATGAS',
    'CORN', 'WHEAT', 'SOYBEAN', 'SUGAR', 'COFFEE', 'COCOA', 'COTTON',
    'US500', 'US30', 'NAS100', 'GER40', 'UK100', 'FRA40', 'JPN225', 'BTC-USD', 'ETH-USD',
  ];
  for (const symbol of wanted) assert.equal(findSymbol(symbol)?.symbol, symbol);
  assert.equal(getSymbol('XAUUSD').label, 'Or');
  assert.equal(getSymbol('CORN').label, 'Maïs');
  assert.equal(getSymbol('EURUSD').label, 'EUR/USD');
});

test('lookup tolerates case, separators and a few broker names', () => {
  for (const spelling of ['EUR/USD', 'eur_usd', 'eur-usd', ' EURUSD ', 'Eur/Usd']) assert.equal(normalizeSymbol(spelling), 'EURUSD', spelling);
  for (const spelling of ['BTCUSD', 'btc-usd', 'BTC/USD', 'btc_usd']) assert.equal(normalizeSymbol(spelling), 'BTC-USD', spelling);
  assert.equal(normalizeSymbol('GOLD'), 'XAUUSD');
  assert.equal(normalizeSymbol('usoil'), 'WTI');
  assert.equal(normalizeSymbol('  my_stock '), 'MY_STOCK', 'unknown symbols are only trimmed and upper-cased');
  assert.equal(pipSize('usd/jpy'), 0.01);
});

test('an unknown symbol needs an explicit pip size, or the error names it', () => {
  assert.throws(() => pipSize('ABCXYZ'), {
    message: 'invalid symbol: "ABCXYZ" (not in the catalogue, so its pip size is unknown: give an explicit pip size)',
  });
  assert.throws(() => getSymbol('ABCXYZ'), { message: 'invalid symbol: "ABCXYZ" (not in the catalogue)' });
  assert.equal(pipSize('ABCXYZ', 0.5), 0.5);
  assert.equal(pipSize('ABCXYZ', '0,001'), 0.001);
  assert.equal(pipSize('EURUSD', 0.001), 0.001, 'an explicit pip size wins');
  assert.throws(() => pipSize('ABCXYZ', -1), { message: 'invalid pip size: -1 (expected a number from 0.000000001 to 10000)' });
  assert.throws(() => pipSize('ABCXYZ', 'abc'), { message: 'invalid pip size: "abc" (expected a number from 0.000000001 to 10000)' });
});

test("the filter list is 'ALL' labelled 'Toutes', then every symbol sorted", () => {
  const options = symbolFilterOptions();
  assert.deepEqual(options[0], { value: 'ALL', label: 'Toutes' });
  const values = options.slice(1).map((o) => o.value);
  assert.equal(values.length, SYMBOLS.length);
  assert.deepEqual(values, [...values].sort());
  assert.deepEqual(options.find((o) => o.value === 'XAUUSD'), { value: 'XAUUSD', label: 'Or' });
});
