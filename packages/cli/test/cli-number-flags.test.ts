// Numbers on the command line are read as people write them, in the range bt can run, and refused
// before any file is read with the flag named (exit 2): JavaScript's Number() read `--sl 0x10` as a
// 16-pip stop; `--sl 1e-320` and `--sl 99999999` failed after the run with core's `invalid slPips`
// (exit 1); `--min-trades 1e23` was core's `invalid minTrades` (exit 1); `--concurrency 100000`
// started one thread per combination (2.8 GB for 200 combinations); `--monte-carlo` past core's
// bound on draws was core's `invalid runs`, after the workbook had been written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { existsSync, writeFileSync } from 'node:fs';
import { bt, EURUSD_H1, fixture, mapLimit, tempDir } from './helpers.js';

const PIPS = 'a number of pips from 0.0001 to 999,999';
const BACKTEST = ['backtest', '--data', EURUSD_H1, '--strategy', 'englobante_entry'];
const OPTIMIZE = ['optimize', '--data', EURUSD_H1, '--strategy', 'englobante_entry', '--no-progress'];

test('hexadecimal, binary and out-of-range numbers are usage errors naming the flag', async () => {
  const cases: [string[], string][] = [
    [[...BACKTEST, '--sl', '0x10', '--tp1', '10'], `invalid --sl: "0x10" (expected ${PIPS})`],
    [[...BACKTEST, '--sl', '10', '--tp1', '0b11'], `invalid --tp1: "0b11" (expected ${PIPS})`],
    [[...BACKTEST, '--sl', '1e-320', '--tp1', '10'], `invalid --sl: "1e-320" (expected ${PIPS})`],
    [[...BACKTEST, '--sl', '0.00004', '--tp1', '10'], `invalid --sl: "0.00004" (expected ${PIPS})`],
    [[...BACKTEST, '--sl', '99999999', '--tp1', '10'], `invalid --sl: "99999999" (expected ${PIPS})`],
    [[...BACKTEST, '--sl', '10', '--tp1', '10', '--tp2', '1e300'], `invalid --tp2: "1e300" (expected ${PIPS})`],
    [[...BACKTEST, '--sl', '10', '--tp1', '10', '--symbol', 'FOOBAR', '--pip-size', '0x10'], 'invalid --pip-size: "0x10" (expected a number from 0.000000001 to 10000)'],
    // Out of the range levels can be rounded to: 1e5 left every trade open, 1e-300 made every trade a loss.
    [[...BACKTEST, '--sl', '10', '--tp1', '10', '--symbol', 'FOOBAR', '--pip-size', '1e5'], 'invalid --pip-size: "1e5" (expected a number from 0.000000001 to 10000)'],
    [[...BACKTEST, '--sl', '10', '--tp1', '10', '--symbol', 'FOOBAR', '--pip-size', '1e-300'], 'invalid --pip-size: "1e-300" (expected a number from 0.000000001 to 10000)'],
    [[...BACKTEST, '--sl', '10', '--tp1', '10', '--spread', '0x1'], 'invalid --spread: "0x1" (expected a number ≥ 0)'],
    [[...BACKTEST, '--sl', '10', '--tp1', '10', '--monte-carlo', '10', '--mc-risk', '0x1'], 'invalid --mc-risk: "0x1" (expected a percent > 0 and at most 99)'],
    [[...OPTIMIZE, '--sl', '10,0x10', '--tp1', '10'], 'invalid --sl: "0x10" (expected a number; decimals take a dot)'],
    [[...OPTIMIZE, '--sl', '10,1e-320', '--tp1', '10'], `invalid --sl: "10,1e-320" (every value is ${PIPS})`],
    [[...OPTIMIZE, '--sl', '10', '--tp1', '10', '--min-trades', '99999999999999999999999'], 'invalid --min-trades: "99999999999999999999999" (expected a whole number ≥ 0)'],
    [[...OPTIMIZE, '--sl', '10', '--tp1', '10', '--concurrency', '100000'], 'invalid --concurrency: "100000" (expected a whole number from 1 to 64)'],
    [['batch', 'plan.yaml', '--concurrency', '65'], 'invalid --concurrency: "65" (expected a whole number from 1 to 64)'],
  ];
  const runs = await mapLimit(cases, 2, ([args]) => bt(args));
  cases.forEach(([args, message], i) => assert.deepEqual(runs[i], { code: 2, stdout: '', stderr: `bt: ${message}\n` }, args.join(' ')));
});

test('numbers as people write them still run: a decimal comma, an exponent, a sign, the ends of the range', async () => {
  const title = (r: { stdout: string }) => r.stdout.split('\n')[0];
  const runs = await mapLimit([['20,5', '10'], ['2e1', '+10'], ['0.0001', '999999']], 2, ([sl, tp1]) => bt([...BACKTEST, '--sl', sl, '--tp1', tp1]));
  runs.forEach((r) => assert.equal(r.code, 0, r.stderr));
  assert.match(title(runs[0]), /SL 20\.5 \/ TP1 10 \/ TP2 20 pips/);
  assert.match(title(runs[1]), /SL 20 \/ TP1 10 \/ TP2 20 pips/);
  assert.match(title(runs[2]), /SL 0\.0001 \/ TP1 999999 /);
});

test('a plan holds the same rules: a hexadecimal pip size, a stop out of range', async () => {
  const tmp = tempDir();
  try {
    const write = (name: string, text: string) => {
      writeFileSync(join(tmp.dir, name), text);
      return join(tmp.dir, name);
    };
    const pip = write('pip.yaml', `strategies: [englobante_entry]\ndata:\n  - path: ${EURUSD_H1}\n    pip_size: "0x10"\nsl: 10\ntp1: 10\n`);
    const sl = write('sl.yaml', `strategies: [englobante_entry]\ndata: ${EURUSD_H1}\nsl: 1e-320\ntp1: 10\n`);
    const [a, b] = await Promise.all([bt(['batch', pip]), bt(['batch', sl])]);
    assert.deepEqual(a, { code: 2, stdout: '', stderr: `bt: invalid plan ${pip}: data[0].pip_size: invalid pip size: "0x10" (expected a number from 0.000000001 to 10000)\n` });
    assert.equal(b.code, 2);
    assert.match(b.stderr, /^bt: invalid plan .*sl\.yaml: .*"1e-320" \(expected a number of pips from 0\.0001 to 999,999\)\n$/);
  } finally {
    tmp.remove();
  }
});

test('--monte-carlo past core\'s 2 billion draws is said of the flag, before the workbook is written', async () => {
  const tmp = tempDir();
  try {
    const out = join(tmp.dir, 'out');
    const run = await bt(['backtest', '--data', fixture('smc/EURUSD_15M.csv'), '--utc-offset', '+02:00', '--strategy', 'fvg_impulsive', '--sl', '10', '--tp1', '10', '--monte-carlo', '1000000', '--out', out]);
    assert.deepEqual(run, { code: 2, stdout: '', stderr: 'bt: invalid --monte-carlo: 1000000 runs of 3153 trades are more than 2,000,000,000 draws\n' });
    assert.ok(!existsSync(out), 'no workbook for a refused run');
  } finally {
    tmp.remove();
  }
});
