// bt regress: the golden plan of fixtures/golden (the same plan and files as core's golden test),
// a drift shown as a table with exit 1, updates that need a note, and bad plans.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENGINE_VERSION } from '@bt/core/backtest';
import { bt, fixtures, tempDir, mapLimit } from './helpers.js';

const golden = join(fixtures, 'golden');

/** A copy of the golden plan (one scenario) and its file in a temporary folder, fixtures still the repository's. */
function goldenCopy(dir: string): { plan: string; file: string } {
  const plan = JSON.parse(readFileSync(join(golden, 'plan.json'), 'utf8'));
  plan.fixtures = fixtures;
  plan.scenarios = plan.scenarios.filter((s: { name: string }) => s.name === 'eurusd-h1');
  writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
  copyFileSync(join(golden, 'eurusd-h1.json'), join(dir, 'eurusd-h1.json'));
  return { plan: join(dir, 'plan.json'), file: join(dir, 'eurusd-h1.json') };
}

test('the repository golden plan passes from any folder (found beside the installed CLI)', async () => {
  const tmp = tempDir();
  try {
    const r = await bt(['regress'], { cwd: tmp.dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^ok {5}eurusd-h1 \(official\/EURUSD_H1_2017-2018\.csv\): 24 strategies, 4,417 trades, [\d.]+ s$/m);
    assert.match(r.stdout, /^ok {5}eurusd-h1-internal-confirm /m);
    assert.match(r.stdout, /^ok {5}eurusd-m15-2023q1 \(smc\/EURUSD_15M\.csv\)/m);
    assert.match(r.stdout, /^ok {5}eurusd-m15-2023q1-costs \(smc\/EURUSD_15M\.csv\)/m);
    assert.ok(r.stdout.endsWith(`\n4 scenarios, engine ${ENGINE_VERSION}: no drift\n`));
  } finally {
    tmp.remove();
  }
});

test('a drift: readable diff table (summary fields and the first differing trade), exit 1; --json says which', async () => {
  const tmp = tempDir();
  try {
    const { plan, file } = goldenCopy(tmp.dir);
    const text = readFileSync(file, 'utf8')
      .replace('"tp1Wins": 218,', '"tp1Wins": 219,')
      .replace('["2017-04-19T18:00","sell","2017-04-19T11:00",1.07214,1.07214,1.07414', '["2017-04-19T18:00","sell","2017-04-19T11:00",1.07214,1.07214,1.07424');
    writeFileSync(file, text);
    const r = await bt(['regress', plan]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'bt: drift in eurusd-h1: the engine\'s results moved. If that is deliberate, bump ENGINE_VERSION and run bt regress --update --note "why"\n');
    const lines = r.stdout.trimEnd().split('\n');
    assert.match(lines[0], /^DRIFT  eurusd-h1 \(official\/EURUSD_H1_2017-2018\.csv\): 24 strategies, 4,417 trades, [\d.]+ s: 1 strategy differs$/);
    assert.deepEqual(lines.slice(1).map((l) => l.trim().split(/ {2,}/)), [
      ['strategy', 'trade', 'field', 'golden', 'now'],
      ['ob_pullback_pure', 'tp1Wins', '219', '218'],
      ['ob_pullback_pure', '1', 'sl', '1.07424', '1.07414'],
    ]);
    const json = JSON.parse((await bt(['regress', plan, '--json'])).stdout);
    assert.equal(json.ok, false);
    assert.deepEqual(json.scenarios[0].drifts, [
      { strategy: 'ob_pullback_pure', field: 'tp1Wins', expected: 219, actual: 218 },
      { strategy: 'ob_pullback_pure', field: 'sl', trade: 1, expected: 1.07424, actual: 1.07414 },
    ]);

    // --update rewrites the file and keeps the note; afterwards there is no drift.
    const updated = await bt(['regress', plan, '--update', '--note', 'test: restore the golden file']);
    assert.equal(updated.code, 0, updated.stderr);
    assert.match(updated.stdout, /^updated eurusd-h1 /);
    const after = JSON.parse(readFileSync(file, 'utf8'));
    assert.deepEqual(after.history.at(-1), { engineVersion: ENGINE_VERSION, note: 'test: restore the golden file' });
    assert.equal(after.strategies.ob_pullback_pure.tp1Wins, 218);
    assert.equal((await bt(['regress', plan])).code, 0);
  } finally {
    tmp.remove();
  }
});

test('bad input: plans, scenarios, notes', async () => {
  const tmp = tempDir();
  try {
    const { plan } = goldenCopy(tmp.dir);
    const broken = join(tmp.dir, 'broken.json');
    writeFileSync(broken, '{\n  "scenarios": [\n    { "name": "x", }\n  ]\n}\n');
    const wrongField = join(tmp.dir, 'wrong.yaml');
    writeFileSync(wrongField, 'scenarios:\n  - name: x\n    file: official/EURUSD_H1_2017-2018.csv\n    read: { symbol: EURUSD }\n    request: { symbol: EURUSD, stop: 20 }\n');
    // A golden file ({name}.json beside the plan) that would be the plan or the scenario's candles:
    // `--update` wrote it over them.
    const self = join(tmp.dir, 'self.json');
    const scenario = (name: string, file: string) => `{ "fixtures": ".", "scenarios": [{ "name": "${name}", "file": "${file}", "read": { "symbol": "EURUSD" }, "request": { "symbol": "EURUSD", "slPips": 20, "tp1Pips": 20 } }] }\n`;
    writeFileSync(self, scenario('self', 'official/EURUSD_H1_2017-2018.csv'));
    const candles = join(tmp.dir, 'candles.yaml');
    writeFileSync(candles, scenario('ETH_BTC-5m', 'ETH_BTC-5m.json'));
    const cases: [string[], number, string][] = [
      [[self, '--update', '--note', 'x'], 2, `bt: invalid golden plan ${self}: scenarios[0].name: "self": its golden file self.json would be the plan itself (rename the scenario)\n`],
      [[candles, '--update', '--note', 'x'], 2, `bt: invalid golden plan ${candles}: scenarios[0].name: "ETH_BTC-5m": its golden file ETH_BTC-5m.json would be the scenario's own file (rename the scenario)\n`],
      [[join(tmp.dir, 'none.json')], 1, `bt: cannot read ${join(tmp.dir, 'none.json')}: no such file\n`],
      [[broken], 2, `bt: invalid plan ${broken}: line 3, column 20: Expected double-quoted property name (not valid JSON)\n`],
      [[wrongField], 2, `bt: invalid golden plan ${wrongField}: scenarios[0].request.stop: unknown field (expected symbol, slMode, slPips, tp1Pips, tp2Pips, timeframe, pipSize, from, to, costs)\n`],
      [[plan, '--scenario', 'eurusd-h4'], 2, 'bt: invalid --scenario: "eurusd-h4" (the plan has eurusd-h1)\n'],
      [[plan, '--update'], 2, 'bt: --update needs --note "why the results moved" (it is kept in each changed file\'s history)\n'],
      [[plan, '--note', 'why'], 2, 'bt: --note goes with --update\n'],
    ];
    const runs = await mapLimit(cases, 4, ([args]) => bt(['regress', ...args]));
    cases.forEach(([args, code, stderr], i) => assert.deepEqual(runs[i], { code, stdout: '', stderr }, args.join(' ')));
    const noFile = tempDir();
    try {
      const only = JSON.parse(readFileSync(plan, 'utf8'));
      writeFileSync(join(noFile.dir, 'plan.json'), JSON.stringify(only));
      const r = await bt(['regress', join(noFile.dir, 'plan.json')]);
      assert.equal(r.code, 1);
      assert.match(r.stdout, /^MISSING eurusd-h1 .*: no golden file .*eurusd-h1\.json \(create it with --update --note\)$/m);
    } finally {
      noFile.remove();
    }
  } finally {
    tmp.remove();
  }
});

test('a golden file that is not one (hand-edited, cut) names the file and what is wrong, never a JavaScript error', async () => {
  const tmp = tempDir();
  try {
    const { plan, file } = goldenCopy(tmp.dir);
    const cases: [string, string][] = [
      ['{}', 'columns is not a list of names'],
      ['null', 'null, expected an object'],
      ['[]', 'a list, expected an object'],
      ['{"columns": ["entry"], "strategies": {"fvg_impulsive": {"trades": 3, "rows": 7}}}', 'strategies.fvg_impulsive has no list of trade rows'],
    ];
    for (const [content, why] of cases) {
      writeFileSync(file, content);
      for (const args of [[plan], [plan, '--update', '--note', 'x']]) {
        assert.deepEqual(await bt(['regress', ...args]), {
          code: 1, stdout: '',
          stderr: `bt: cannot read ${file}: not a golden file (${why}); restore it from version control, or delete it and run bt regress --update --note "why" to write it again\n`,
        }, `${content} ${args.join(' ')}`);
      }
      assert.equal(readFileSync(file, 'utf8'), content, '--update leaves it for the user to look at');
    }
  } finally {
    tmp.remove();
  }
});
