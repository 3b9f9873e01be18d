// bt batch: a plan's cartesian product on worker threads, progress lines when stderr is not a
// terminal, the ranked table, the CSV of every run (win rates with Wilson bounds), failed runs,
// and bad plans with the place in the plan named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runBacktest } from '@bt/core/backtest';
import { readCandlesFile } from '@bt/core/node';
import { bt, EURUSD_H1, fixture, fixtures, readerMessage, tempDir, mapLimit } from './helpers.js';

function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  for (const line of text.trimEnd().split('\n')) {
    const cells: string[] = [];
    let cell = '';
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (quoted) {
        if (ch === '"' && line[i + 1] === '"') (cell += '"'), i++;
        else if (ch === '"') quoted = false;
        else cell += ch;
      } else if (ch === '"') quoted = true;
      else if (ch === ',') cells.push(cell), (cell = '');
      else cell += ch;
    }
    cells.push(cell);
    rows.push(cells);
  }
  const [head, ...body] = rows;
  return body.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i]])));
}

test('all 24 strategies on two real fixtures, 2 workers: progress per run, ranking, CSV equal to core', async () => {
  const tmp = tempDir();
  try {
    const plan = join(tmp.dir, 'all.yaml');
    writeFileSync(plan, `strategies: all\ndata:\n  - ${EURUSD_H1}\n  - path: ${fixture('smc/EURUSD_15M.csv')}\n    utc_offset: "+02:00"\n    from: 2023-01-01\n    to: 2023-03-31\nsl: 20\ntp1: 20\ntp2: 40\n`);
    const r = await bt(['batch', plan, '--concurrency', '2', '--top', '5'], { cwd: tmp.dir });
    assert.equal(r.code, 0, r.stderr);
    const progress = r.stderr.trimEnd().split('\n');
    assert.equal(progress[0], `bt batch ${plan} · 48 runs (24 strategies × 2 data files)`);
    assert.equal(progress.length, 49);
    progress.slice(1).forEach((line, i) => assert.match(line, new RegExp(`^\\[${i + 1}/48\\] ok {5}\\w+ · .+ · \\d+ trades · \\d+ ms · ETA \\d+ s$`)));
    assert.match(r.stdout, /^Best 5 of 48 runs by winrate_tp1_low\n#  run  strategy/);
    assert.match(r.stdout, /\n48 runs in [\d.]+ s on 2 workers: 48 ok, 0 failed · [\d.]+ runs\/s · (?:[\d.]+ M|[\d,]+) candles\/s\nCSV of every run: all-runs\.csv\n$/);

    const rows = parseCsv(readFileSync(join(tmp.dir, 'all-runs.csv'), 'utf8'));
    assert.equal(rows.length, 48);
    assert.deepEqual(rows.map((row) => Number(row.run)), Array.from({ length: 48 }, (_, i) => i + 1));
    const { candles } = await readCandlesFile(fixture('smc/EURUSD_15M.csv'), { utcOffset: '+02:00' });
    const row = rows.find((x) => x.strategy === 'fvg_pullback_multi_rsi' && x.timeframe === 'M15')!;
    const core = await runBacktest(candles, { strategy: 'fvg_pullback_multi_rsi', symbol: 'EURUSD', slPips: 20, tp1Pips: 20, tp2Pips: 40, from: Date.UTC(2023, 0, 1), to: Date.UTC(2023, 2, 31, 23, 59, 59, 999) });
    const g = core.statistics.global;
    const r9 = (x: number | null | undefined) => (x === null || x === undefined ? '' : String(Math.round(x * 1e9) / 1e9));
    assert.deepEqual(
      [row.trades, row.resolved, row.tp1_wins, row.winrate_tp1, row.winrate_tp1_low, row.winrate_tp1_high, row.winrate_tp2, row.winrate_tp2_low, row.winrate_tp2_high, row.from, row.to],
      [String(g.trades), String(g.resolved), String(g.tp1Wins), r9(g.tp1.winrate), r9(g.tp1.winrateCi95?.[0]), r9(g.tp1.winrateCi95?.[1]), r9(g.tp2.winrate), r9(g.tp2.winrateCi95?.[0]), r9(g.tp2.winrateCi95?.[1]), '2023-01-01', '2023-03-31'],
    );
  } finally {
    tmp.remove();
  }
});

test('data paths are relative to the plan; parameter grids apply to the strategies that read them; exits are part of the product; --json ranks', async () => {
  const tmp = tempDir();
  try {
    const plan = join(tmp.dir, 'grid.json');
    writeFileSync(plan, JSON.stringify({ name: 'grid', strategies: ['fvg_pullback_multi', 'fvg_pullback_multi_rsi'], data: [relative(tmp.dir, EURUSD_H1)], params: { min_wait_candle: [1, 3], rsi_threshold: [35, 45] }, sl: [10, 20], tp1: 20 }));
    const r = await bt(['batch', plan, '--concurrency', '2', '--json', '--no-progress', '--rank-by', 'expectancy_tp1'], { cwd: tmp.dir });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    const json = JSON.parse(r.stdout);
    assert.equal(json.command, 'batch');
    assert.equal(json.runs_total, 12);
    assert.equal(json.ok, 12);
    assert.equal(json.csv, 'grid-runs.csv');
    assert.ok(json.runs_per_s > 0 && json.candles_per_s > 0);
    const grids = json.runs.map((run: { strategy: string; grid: object; sl_pips: number }) => `${run.strategy} ${JSON.stringify(run.grid)} sl${run.sl_pips}`);
    assert.deepEqual(grids.slice(0, 6), [
      'fvg_pullback_multi {"min_wait_candles":1} sl10', 'fvg_pullback_multi {"min_wait_candles":1} sl20',
      'fvg_pullback_multi {"min_wait_candles":3} sl10', 'fvg_pullback_multi {"min_wait_candles":3} sl20',
      'fvg_pullback_multi_rsi {"min_wait_candles":1,"rsi_threshold":35} sl10', 'fvg_pullback_multi_rsi {"min_wait_candles":1,"rsi_threshold":35} sl20',
    ]);
    const byId = new Map(json.runs.map((run: { id: number; expectancy_tp1: number }) => [run.id, run.expectancy_tp1]));
    const ranked = json.ranking.map((id: number) => byId.get(id));
    assert.deepEqual(ranked, [...ranked].sort((a, b) => b - a));
    const csv = parseCsv(readFileSync(join(tmp.dir, 'grid-runs.csv'), 'utf8'));
    assert.deepEqual(Object.keys(csv[0]).slice(13, 15), ['min_wait_candles', 'rsi_threshold']);
    assert.equal(csv[0].rsi_threshold, '');
    assert.equal(csv[4].rsi_threshold, '35');
    assert.equal(JSON.parse(csv[4].params_json).min_wait_candles, 1);

    const stdoutCsv = await bt(['batch', plan, '--csv', '-', '--no-progress', '--concurrency', '1'], { cwd: tmp.dir });
    assert.equal(stdoutCsv.stdout.split('\n')[0], readFileSync(join(tmp.dir, 'grid-runs.csv'), 'utf8').split('\n')[0]);
  } finally {
    tmp.remove();
  }
});

test('a malformed data file fails its runs with the reader\'s message (line, column); exit 1', async () => {
  const tmp = tempDir();
  try {
    const bad = fixture('bad/high-below-low.csv');
    const plan = join(tmp.dir, 'bad-data.yaml');
    writeFileSync(plan, `strategies: [fvg_impulsive, englobante_entry]\ndata:\n  - path: ${bad}\n    symbol: EURUSD\nsl: 10\ntp1: 10\n`);
    const r = await bt(['batch', plan, '--concurrency', '1'], { cwd: tmp.dir });
    assert.equal(r.code, 1);
    const message = (await readerMessage(bad, { symbol: 'EURUSD' })).split('\n')[0];
    assert.ok(r.stderr.includes(`[1/2] FAILED fvg_impulsive · ${bad}: ${message}`), r.stderr);
    assert.ok(r.stderr.includes('line 3, column High: High 1.071 is below Low 1.07214'));
    assert.ok(r.stderr.endsWith('bt: 2 of 2 runs failed\n'));
  } finally {
    tmp.remove();
  }
});

test('failed runs are listed and counted; the batch exits 1', async () => {
  const tmp = tempDir();
  try {
    const plan = join(tmp.dir, 'fail.yaml');
    writeFileSync(plan, `strategies: [fvg_impulsive]\ndata:\n  - ${fixture('freqtrade/UNITTEST_BTC-30m.json')}\n  - ${EURUSD_H1}\nsl: 10\ntp1: 10\n`);
    const r = await bt(['batch', plan, '--concurrency', '2'], { cwd: tmp.dir });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^\[\d\/2\] FAILED fvg_impulsive · .*UNITTEST_BTC-30m\.json: invalid symbol: "UNITTESTBTC" \(not in the catalogue, so its pip size is unknown: give an explicit pip size\)$/m);
    assert.ok(r.stderr.endsWith('bt: 1 of 2 runs failed\n'));
    assert.match(r.stdout, /\n2 runs in [\d.]+ s on 2 workers: 1 ok, 1 failed · /);
    assert.match(r.stdout, /\nfailed run 1 \(fvg_impulsive · .*UNITTEST_BTC-30m\.json\): invalid symbol: "UNITTESTBTC"/);
    const rows = parseCsv(readFileSync(join(tmp.dir, 'fail-runs.csv'), 'utf8'));
    assert.deepEqual(rows.map((row) => row.status), ['failed', 'ok']);
  } finally {
    tmp.remove();
  }
});

test('bad plans name the place in the plan (exit 2); missing files exit 1; bad flags exit 2', async () => {
  const tmp = tempDir();
  try {
    const write = (name: string, text: string) => {
      writeFileSync(join(tmp.dir, name), text);
      return join(tmp.dir, name);
    };
    const data = `data: [${EURUSD_H1}]\nsl: 10\ntp1: 10\n`;
    const cases: [string, number, string][] = [
      [write('syntax.yaml', 'strategies: [fvg_impulsive\ndata: x\n'), 2, 'line 2, column 1: Flow sequence in block collection must be sufficiently indented and end with a ] (not valid YAML)'],
      [write('strategy.yaml', `strategies: [fvg_impulsiv]\n${data}`), 2, 'strategies[0]: invalid strategy: "fvg_impulsiv" (not one of the 24 official strategies; did you mean fvg_impulsive?)'],
      [write('param.yaml', `strategies: [fvg_impulsive]\n${data}params:\n  min_pip: [1, 2]\n`), 2, 'params.min_pip: unknown parameter (did you mean min_pips?)'],
      [write('unread.yaml', `strategies: [fvg_impulsive]\n${data}params:\n  max_touch: [1, 2]\n`), 2, 'params.max_touch: no strategy of the plan reads max_touch'],
      [write('value.yaml', `strategies: [ob_pullback_pure]\n${data}params:\n  max_touch: [0, 2]\n`), 2, 'params (ob_pullback_pure: max_touch=0): invalid max_touch: 0 (expected an integer ≥ 1)'],
      [write('date.yaml', `strategies: all\n${data}from: 2023-02-30\n`), 2, 'from: "2023-02-30" (expected a UTC date YYYY-MM-DD or YYYY-MM-DDTHH:MM)'],
      [write('key.yaml', `stratgies: all\n${data}`), 2, 'stratgies: unknown field (did you mean strategies?); expected version, name, strategies, data, params, sl, tp1, tp2, sl_mode, from, to, out'],
      [write('exits.yaml', `strategies: all\ndata: [${EURUSD_H1}]\n`), 2, 'sl/tp1/tp2: missing sl (required with --sl-mode external)'],
      [write('offset.yaml', `strategies: all\ndata:\n  - path: ${EURUSD_H1}\n    utc_offset: Paris\n${'sl: 10\ntp1: 10\n'}`), 2, 'data[0]: "Paris" (expected an offset such as +02:00, -05:00, +0530, Z or UTC, or minutes east of UTC)'],
      [write('pip.yaml', `strategies: all\ndata:\n  - path: ${EURUSD_H1}\n    pip_size: -1\nsl: 10\ntp1: 10\n`), 2, 'data[0].pip_size: invalid pip size: "-1" (expected a number from 0.000000001 to 10000)'],
      [write('nodata.yaml', 'strategies: all\nsl: 10\ntp1: 10\n'), 2, 'data: missing (a list of candle files)'],
      [write('empty.yaml', ''), 2, 'the file is empty'],
      // "Billion laughs": nine anchors, each nine times the one before (387 million strings once expanded).
      [write('laughs.yaml', Array.from({ length: 9 }, (_, k) => (k === 0 ? 'a: &a [x,x,x,x,x,x,x,x,x]' : `${'abcdefghi'[k]}: &${'abcdefghi'[k]} [${Array(9).fill(`*${'abcdefghi'[k - 1]}`).join(',')}]`)).join('\n') + '\n'), 2,
        'Excessive alias count indicates a resource exhaustion attack (YAML anchors reused too often)'],
    ];
    const runs = await mapLimit(cases, 4, ([plan]) => bt(['batch', plan]));
    cases.forEach(([plan, code, message], i) => assert.deepEqual(runs[i], { code, stdout: '', stderr: `bt: invalid plan ${plan}: ${message}\n` }, plan));
    const missingData = write('missing.yaml', `strategies: all\ndata: [no-such.csv]\nsl: 10\ntp1: 10\n`);
    assert.deepEqual(await bt(['batch', missingData]), { code: 1, stdout: '', stderr: `bt: cannot read no-such.csv: no such file (data of plan ${missingData})\n` });
    assert.deepEqual(await bt(['batch', join(tmp.dir, 'none.yaml')]), { code: 1, stdout: '', stderr: `bt: cannot read ${join(tmp.dir, 'none.yaml')}: no such file\n` });
    const ok = write('ok.yaml', `strategies: all\n${data}`);
    assert.deepEqual(await bt(['batch', ok, '--concurrency', '0']), { code: 2, stdout: '', stderr: 'bt: invalid --concurrency: "0" (expected a whole number ≥ 1)\n' });
    assert.deepEqual(await bt(['batch', ok, '--rank-by', 'luck']), { code: 2, stdout: '', stderr: 'bt: invalid --rank-by: "luck" (expected one of winrate_tp1_low, winrate_tp1, winrate_tp2_low, winrate_tp2, expectancy_tp1, expectancy_tp2, profit_factor_tp1, trades)\n' });
    assert.ok(fixtures);
  } finally {
    tmp.remove();
  }
});
