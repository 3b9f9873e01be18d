import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDecimal } from '@bt/core/candles';

const fixtures = join(import.meta.dirname, '..', '..', '..', 'fixtures');
const encoder = new TextEncoder();
const parse = (text: string) => {
  const bytes = encoder.encode(text);
  return parseDecimal(bytes, 0, bytes.length);
};

/** Every decimal-looking token in a file (CSV cells, JSON numbers). */
function numbersIn(file: string): string[] {
  return readFileSync(join(fixtures, file), 'utf8').match(/-?\d+(\.\d+)?(e[+-]?\d+)?/gi) ?? [];
}

test('parseDecimal equals parseFloat on every number of the real fixtures', () => {
  const files = ['EURUSD.csv', 'GOOG.csv', 'BTCUSD.csv', 'smc/EURUSD_15M.csv', 'smc/expected/fvg_result_data.csv', 'backtrader/2006-min-005.txt',
    'freqtrade/UNITTEST_BTC-1m.json', 'freqtrade/ETH_BTC-5m.json', 'freqtrade/XRP_USDT_USDT-5m-futures.json'];
  let checked = 0;
  for (const file of files) {
    for (const token of numbersIn(file)) {
      const got = parse(token);
      if (!Object.is(got, parseFloat(token))) assert.fail(`${file}: ${token} -> ${got}, parseFloat ${parseFloat(token)}`);
      checked++;
    }
  }
  assert.ok(checked > 500_000, `${checked} numbers checked`);
});

test('parseDecimal equals parseFloat on edge cases: 2^53, 17+ digits, exponents, subnormals, extremes', () => {
  const cases = [
    '0', '-0', '+0', '0.0', '00001.5000', '1', '-1', '+1.5', '.5', '5.', '-.25',
    '9007199254740991', '9007199254740992', '9007199254740993', '900719925474099', '900719925474099.9',
    '123456789012345678901234567890', '0.30000000000000004', '0.1', '0.2', '0.7', '1.1', '2.675',
    '1e22', '1e23', '1.5e22', '1e-22', '1e-23', '123e-20', '4.35e-7', '1E5', '1e+5', '1e-5',
    '5e-324', '4.9406564584124654e-324', '2.2250738585072014e-308', '2.2250738585072011e-308',
    '1.7976931348623157e308', '1.0842000000000000000001', '1.08420000000000000000', '0.000000000000000000000000001234',
    '1.0716', '1.07219', '97482.0', '25342.80228337', '0.09946999', '2527.92100293', '3580.52',
  ];
  for (const text of cases) assert.ok(Object.is(parse(text), parseFloat(text)), `${text}: ${parse(text)} vs ${parseFloat(text)}`);
});

test('parseDecimal equals parseFloat on 200,000 random decimals (seeded)', () => {
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let i = 0; i < 200_000; i++) {
    const intDigits = Math.floor(random() * 12);
    const fracDigits = Math.floor(random() * 14);
    let text = random() < 0.2 ? '-' : '';
    for (let k = 0; k < intDigits; k++) text += Math.floor(random() * 10);
    if (fracDigits > 0 || intDigits === 0) text += '.';
    for (let k = 0; k < Math.max(fracDigits, intDigits === 0 ? 1 : 0); k++) text += Math.floor(random() * 10);
    if (random() < 0.1) text += `e${Math.floor(random() * 60) - 30}`;
    if (!Object.is(parse(text), parseFloat(text))) assert.fail(`${text}: ${parse(text)} vs ${parseFloat(text)}`);
  }
});

test('parseDecimal refuses what is not a plain finite number', () => {
  for (const text of ['', ' ', '-', '+', '.', '-.', 'e5', '1e', '1e+', '1.2.3', '1,5', 'abc', '1.5x', 'x1.5', 'NaN', 'nan', 'Infinity', '-Infinity', 'inf', '1e400', '-1e400', '0x10', '1_000']) {
    assert.ok(Number.isNaN(parse(text)), `${JSON.stringify(text)} -> ${parse(text)}`);
  }
});

test('parseDecimal ignores spaces around the number, not inside it', () => {
  assert.equal(parse(' 1.5 '), 1.5);
  assert.equal(parse('\t42'), 42);
  assert.ok(Number.isNaN(parse('1 5')));
});

test('a cell of 500,000 digits is refused in linear time as a number too large, not after minutes', async () => {
  const { CandleFileError, readCandlesCsv } = await import('@bt/core/candles');
  const H = 'Datetime,Open,High,Low,Close,Volume\n';
  for (const cell of ['1'.repeat(500_000), `1.${'2'.repeat(500_000)}e99999`, `${'9'.repeat(500_000)}x`]) {
    const started = performance.now();
    const error = (() => {
      try {
        readCandlesCsv(`${H}2024-01-01 00:00:00+00:00,1,2,0.5,1.5,${cell}\n`);
      } catch (e) {
        return e;
      }
      return assert.fail('loaded');
    })();
    assert.ok(error instanceof CandleFileError);
    assert.deepEqual(error.problems.map((p) => [p.code, p.line, p.column]), [['non_numeric', 2, 'Volume']]);
    assert.match(error.problems[0].message, cell.endsWith('x') ? /is not a number$/ : /is not a price$/);
    // A hang guard, not a speed target: the classification regex backtracked over every split of
    // the digits (quadratic: 200,000 took 80 s, 500,000 takes minutes), the linear one reads them
    // in tens of milliseconds; 10 s is far from both, even on a machine loaded twenty times over.
    assert.ok(performance.now() - started < 10_000, `${Math.round(performance.now() - started)} ms`);
  }
});
