// Plans and --params-json nested without end, and a plan saved with a byte order mark
// (src/plan-file.ts, src/request.ts): thousands of nested brackets used to end in
// `bt: Maximum call stack size exceeded` (exit 1 for a batch JSON plan); a JSON plan written by
// Notepad (a BOM first) was refused as `Unexpected token '﻿'`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bt, EURUSD_H1, mapLimit, tempDir } from './helpers.js';

const DEEP = 20_000;
const nested = (inner: string) => '['.repeat(DEEP) + inner + ']'.repeat(DEEP);
const TOO_DEEP = 'nested more than 32 levels deep (a plan is a few levels of lists and mappings)';

test('plans nested thousands of levels deep are usage errors naming the plan, for batch and regress', async () => {
  const tmp = tempDir();
  try {
    const write = (name: string, text: string) => {
      writeFileSync(join(tmp.dir, name), text);
      return join(tmp.dir, name);
    };
    const data = JSON.stringify(EURUSD_H1);
    const plans = [
      write('params.json', `{"strategies":["englobante_entry"],"data":${data},"sl":10,"tp1":10,"params":{"confirm_candle":${nested('true')}}}`),
      write('name.json', `{"strategies":["englobante_entry"],"data":${data},"sl":10,"tp1":10,"name":${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}}`),
      write('flow.yaml', `strategies: [englobante_entry]\ndata: ${EURUSD_H1}\nsl: 10\ntp1: 10\nparams:\n  confirm_candle: ${nested('true')}\n`),
      write('block.yaml', `a:\n${Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i + 1)}b${i}:`).join('\n')}\n`),
    ];
    const runs = await mapLimit([...plans.map((p) => ['batch', p, '--no-progress']), ['regress', plans[0]]], 2, (args) => bt(args, { cwd: tmp.dir }));
    const expected = [...plans, plans[0]].map((p) => ({ code: 2, stdout: '', stderr: `bt: invalid plan ${p}: ${TOO_DEEP}\n` }));
    assert.deepEqual(runs, expected);
  } finally {
    tmp.remove();
  }
});

test('a JSON plan that starts with a byte order mark reads like the same plan without one', async () => {
  const tmp = tempDir();
  try {
    const plan = join(tmp.dir, 'bom.json');
    writeFileSync(plan, `\ufeff{"strategies": ["englobante_entry"], "data": ${JSON.stringify(EURUSD_H1)}, "sl": 10, "tp1": 10}\n`);
    const run = await bt(['batch', plan, '--no-progress', '--json', '--csv', join(tmp.dir, 'runs.csv')]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal((JSON.parse(run.stdout) as { ok: number }).ok, 1);
  } finally {
    tmp.remove();
  }
});

test('--params-json takes a number, a word or true/false per parameter, never a nested value', async () => {
  const base = ['backtest', '--data', EURUSD_H1, '--strategy', 'englobante_entry', '--sl', '10', '--tp1', '10', '--params-json'];
  const [list, object] = await Promise.all([
    bt([...base, `{"confirm_candle": ${nested('true')}}`]),
    bt([...base, '{"confirm_candle": {"value": true}}']),
  ]);
  assert.deepEqual(list, { code: 2, stdout: '', stderr: 'bt: invalid --params-json: confirm_candle is a list (expected a number, a word or true/false)\n' });
  assert.deepEqual(object, { code: 2, stdout: '', stderr: 'bt: invalid --params-json: confirm_candle is an object (expected a number, a word or true/false)\n' });
});
