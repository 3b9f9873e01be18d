// Every CSV bt writes goes through one cell rule (src/csv.ts, docs/cli.md "CSV files"): a text
// cell a spreadsheet would run as a formula (=, +, -, @, tab, carriage return first) is written
// with a leading apostrophe, quoted (CSV injection, OWASP); numbers stay numbers, negative ones too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { foldsCsv } from '../src/actions/walk-forward.js';
import { runsCsv } from '../src/batch/rank.js';
import type { RunRow } from '../src/batch/run-row.js';
import { csvCell, csvText } from '../src/csv.js';
import { combinationsCsv, type CombinationRow } from '../src/optimize/rows.js';
import { bt, EURUSD_H1, tempDir } from './helpers.js';

const FORMULAS = ['=HYPERLINK("http://x","y")', '+1+cmd|x', '-2+3', '@SUM(A1)', '\t=1', '\r=1', '=1,2'];

test('a text cell a spreadsheet would run is written with an apostrophe, quoted; numbers and plain text are not touched', () => {
  assert.deepEqual(FORMULAS.map(csvText), ['"\'=HYPERLINK(""http://x"",""y"")"', '"\'+1+cmd|x"', '"\'-2+3"', '"\'@SUM(A1)"', '"\'\t=1"', '"\'\r=1"', '"\'=1,2"']);
  // Numbers, as numbers or as the text of a plain number, are read by a spreadsheet as that number.
  assert.deepEqual([-0.5, -3, 1e-12, -1234.5678901234].map(csvCell), ['-0.5', '-3', '0', '-1234.567890123']);
  assert.deepEqual(['-5', '+2.5', '-1e-3', '-.5'].map(csvCell), ['-5', '+2.5', '-1e-3', '-.5']);
  // Other text: quoted only for a quote, a comma or a line break; JSON objects start with {.
  assert.deepEqual(['EURUSD_H1.csv', 'a,b', 'say "x"', 'a\nb', ''].map(csvCell), ['EURUSD_H1.csv', '"a,b"', '"say ""x"""', '"a\nb"', '']);
  assert.equal(csvCell({ name: '=1+1' }), '"{""name"":""=1+1""}"');
  assert.equal(csvCell(null), '');
  assert.equal(csvCell(true), 'true');
});

test('bt batch: a data file named like a formula is neutralised in the runs CSV, negative figures stay numbers', async () => {
  const tmp = tempDir();
  try {
    const name = '=2+5_EURUSD_H1.csv';
    copyFileSync(EURUSD_H1, join(tmp.dir, name));
    const plan = join(tmp.dir, 'plan.yaml');
    writeFileSync(plan, `strategies: [englobante_entry, ob_pullback_pure]\ndata:\n  - { path: "${name}", symbol: EURUSD }\nsl: 10\ntp1: 5\ntp2: 10\n`);
    const r = await bt(['batch', plan, '--no-progress', '--concurrency', '1', '--csv', join(tmp.dir, 'runs.csv')], { cwd: tmp.dir });
    assert.equal(r.code, 0, r.stderr);
    const lines = readFileSync(join(tmp.dir, 'runs.csv'), 'utf8').trimEnd().split('\n');
    const head = lines[0].split(',');
    assert.equal(lines.length, 3);
    for (const line of lines.slice(1)) {
      assert.ok(line.includes(`,"'${name}",`), line);
      assert.ok(!line.includes(`,${name},`), line);
    }
    // A negative expectancy or drawdown is written as a number.
    const at = head.indexOf('max_drawdown_tp1');
    const drawdowns = lines.slice(1).map((l) => l.split(',')[at]);
    assert.ok(drawdowns.every((d) => /^-?\d+(\.\d+)?$/.test(d)), drawdowns.join(' '));
  } finally {
    tmp.remove();
  }
});

const figures = { trades: 3, resolved: 3, wins: 1, losses: 2, open: 0, winrate: 1 / 3, winrate_low: 0.06, winrate_high: 0.79, expectancy: -0.25, total_r: -0.75, profit_factor: 0.5, max_drawdown: -2, longest_losing_streak: 2, score: -0.25, no_loss: false };

test('bt optimize: the combinations CSV writes a formula-like value or error as text, negative figures as numbers', () => {
  const row: CombinationRow = { rank: null, combination: 0, eligible: false, error: '=1+1 refused', grid: { mode: '@SUM(A1)', sl_pips: 10 }, sl_pips: 10, tp1_pips: 10, tp2_pips: 20, ...figures, params: { mode: '@SUM(A1)' } };
  const [head, line] = combinationsCsv([row], ['mode', 'sl_pips']).trimEnd().split('\n');
  assert.equal(head, 'rank,combination,status,error,mode,sl_pips,tp1_pips,tp2_pips,trades,resolved,wins,losses,open,winrate,winrate_low,winrate_high,expectancy,total_r,profit_factor,max_drawdown,longest_losing_streak,score,no_loss,params_json');
  assert.equal(line, `,0,failed,"'=1+1 refused","'@SUM(A1)",10,10,20,3,3,1,2,0,0.333333333,0.06,0.79,-0.25,-0.75,0.5,-2,2,-0.25,false,"{""mode"":""@SUM(A1)""}"`);
});

test('bt walk-forward: the folds CSV writes a formula-like choice as text, negative figures as numbers', () => {
  const fold = {
    fold: 1, in_sample_from: '2017-01-01', in_sample_to: '2017-02-01', out_of_sample_from: '2017-02-01', out_of_sample_to: '2017-03-01',
    chosen: '-1+1', params: { mode: '-1+1' }, sl_pips: 10, tp1_pips: 10, tp2_pips: 20, eligible: 4,
    in_sample_score: -0.1, in_sample_resolved: 5, in_sample_winrate: 0.4, in_sample_expectancy: -0.1,
    out_of_sample_trades: 2, out_of_sample_resolved: 2, out_of_sample_winrate: 0, out_of_sample_expectancy: -1, out_of_sample_total_r: -2,
  };
  const [, line] = foldsCsv([fold as Parameters<typeof foldsCsv>[0][number]]).trimEnd().split('\n');
  assert.equal(line, `1,2017-01-01,2017-02-01,2017-02-01,2017-03-01,"'-1+1","{""mode"":""-1+1""}",10,10,20,4,-0.1,5,0.4,-0.1,2,2,0,-1,-2`);
});

test('bt batch: the runs CSV neutralises every text column it is given (data, symbol, error, grid values)', () => {
  const row = {
    id: 1, ok: false, error: '@x', data: '+y.csv', symbol: '=EURUSD', timeframe: 'H1', strategy: 'englobante_entry', grid: { mode: '\t=1' }, params: {}, sl_mode: 'external',
    sl_pips: 10, tp1_pips: 10, tp2_pips: 20, from: '2017-01-01', to: '2017-02-01', candles: 0, trades: 0, resolved: 0, tp1_wins: 0, tp2_wins: 0, sl: 0, open: 0,
    winrate_tp1: null, winrate_tp1_low: null, winrate_tp1_high: null, winrate_tp2: null, winrate_tp2_low: null, winrate_tp2_high: null,
    expectancy_tp1: -0.5, expectancy_tp2: null, profit_factor_tp1: null, max_drawdown_tp1: -1.5, golden_hour: null, golden_hour_tp1: null, engine_ms: 1, load_ms: 1, workbook: null,
  } as unknown as RunRow;
  const [, line] = runsCsv([row], ['mode']).trimEnd().split('\n');
  assert.ok(line.startsWith(`1,failed,"'@x","'+y.csv","'=EURUSD",H1,englobante_entry,external,10,10,20,2017-01-01,2017-02-01,"'\t=1",`), line);
  assert.ok(line.includes(',-0.5,,,-1.5,'), line);
});

test('bt zones --csv: words and numbers through the same rule', async () => {
  const r = await bt(['zones', '--data', EURUSD_H1, '--pattern', 'fvg', '--csv']);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines[0], 'kind,side,top,bottom,formed_index,formed_at,confirmed_index,confirmed_at,filled_index,filled_at,mitigated_index,mitigated_at');
  assert.ok(lines.length > 10);
  assert.ok(lines.slice(1).every((l) => /^\w+,(buy|sell),\d/.test(l)), lines[1]);
});
