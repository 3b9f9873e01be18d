// `--format freqtrade` (and a plan's `format: freqtrade`) names freqtrade's JSON files: given for
// a CSV file it is a usage error in the CLI's words; it was core's "use readCandlesJson or
// readCandles", exit 1, after the flags had been accepted (src/options.ts checkFormatFor).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bt, EURUSD_H1, fixture, mapLimit, tempDir } from './helpers.js';

const WHY = (path: string) => `"freqtrade" for ${path} (freqtrade files are JSON arrays in .json files; a .csv or .txt file is CSV: another layout, or auto)`;
const EXITS = ['--strategy', 'englobante_entry', '--sl', '10', '--tp1', '10'];

test('--format freqtrade on a CSV file is a usage error naming the flag and the file', async () => {
  const tmp = tempDir();
  try {
    const cases: string[][] = [
      ['backtest', '--data', EURUSD_H1, ...EXITS, '--format', 'freqtrade'],
      ['optimize', '--data', EURUSD_H1, ...EXITS, '--format', 'freqtrade', '--no-progress'],
      ['zones', '--data', EURUSD_H1, '--pattern', 'fvg', '--format', 'freqtrade'],
      ['enrich', EURUSD_H1, '-o', join(tmp.dir, 'out.csv'), '--format', 'freqtrade'],
      ['convert', EURUSD_H1, join(tmp.dir, 'out.arrow'), '--format', 'freqtrade'],
    ];
    const runs = await mapLimit(cases, 2, (args) => bt(args));
    runs.forEach((run, i) => assert.deepEqual(run, { code: 2, stdout: '', stderr: `bt: invalid --format: ${WHY(EURUSD_H1)}\n` }, cases[i].join(' ')));

    const plan = join(tmp.dir, 'plan.yaml');
    writeFileSync(plan, `strategies: [englobante_entry]\ndata:\n  - { path: ${EURUSD_H1}, format: freqtrade }\nsl: 10\ntp1: 10\n`);
    assert.deepEqual(await bt(['batch', plan]), { code: 2, stdout: '', stderr: `bt: invalid plan ${plan}: data[0].format: ${WHY(EURUSD_H1)}\n` });

    // validate lists it as the file's failure; a freqtrade file still reads with the flag.
    const json = fixture('freqtrade/ETH_BTC-5m.json');
    const validate = await bt(['validate', EURUSD_H1, json, '--format', 'freqtrade']);
    assert.equal(validate.code, 1);
    assert.match(validate.stdout, new RegExp(`^FAIL {2}${EURUSD_H1.replace(/[.]/g, '\\.')}: invalid --format: "freqtrade" for `, 'm'));
    assert.match(validate.stdout, /^ok {4}.*ETH_BTC-5m\.json: 5,760 candles, M5/m);
  } finally {
    tmp.remove();
  }
});

test('a CSV layout for a .json file, any layout for an Arrow file, freqtrade for a workbook: usage errors, never silently ignored', async () => {
  const tmp = tempDir();
  try {
    const json = fixture('freqtrade/ETH_BTC-5m.json');
    const arrow = join(tmp.dir, 'ETH_BTC-5m.arrow');
    assert.equal((await bt(['convert', json, arrow])).code, 0);
    const jsonWhy = (layout: string) => `bt: invalid --format: "${layout}" for ${json} (a .json file is read as freqtrade's JSON array [[epoch_ms, open, high, low, close, volume], ...]; "${layout}" is a CSV layout, for .csv, .txt and .xlsx files: freqtrade, or auto)\n`;
    const arrowWhy = (layout: string) => `bt: invalid --format: "${layout}" for ${arrow} (an Arrow file holds its own typed columns and is read without a layout: leave --format out, or auto)\n`;
    const cases: [string[], string][] = [
      [['backtest', '--data', json, ...EXITS, '--format', 'official'], jsonWhy('official')],
      [['zones', '--data', json, '--pattern', 'fvg', '--format', 'metatrader'], jsonWhy('metatrader')],
      [['convert', json, join(tmp.dir, 'out.csv'), '--format', 'Official'], jsonWhy('official')],
      [['backtest', '--data', arrow, ...EXITS, '--format', 'official'], arrowWhy('official')],
      [['enrich', arrow, '-o', join(tmp.dir, 'e.csv'), '--format', 'freqtrade'], arrowWhy('freqtrade')],
      [['backtest', '--data', join(tmp.dir, 'x.xlsx'), ...EXITS, '--format', 'freqtrade'], `bt: invalid --format: "freqtrade" for ${join(tmp.dir, 'x.xlsx')} (freqtrade files are JSON arrays in .json files; a workbook is read with the CSV layouts: another layout, or auto)\n`],
    ];
    const runs = await mapLimit(cases, 2, ([args]) => bt(args));
    runs.forEach((run, i) => assert.deepEqual(run, { code: 2, stdout: '', stderr: cases[i][1] }, cases[i][0].join(' ')));
    assert.equal(readdirSync(tmp.dir).join(), 'ETH_BTC-5m.arrow', 'nothing written');

    const plan = join(tmp.dir, 'plan.yaml');
    writeFileSync(plan, `strategies: [englobante_entry]\ndata:\n  - { path: ${json}, format: official }\nsl: 10\ntp1: 10\n`);
    assert.deepEqual(await bt(['batch', plan]), { code: 2, stdout: '', stderr: `bt: invalid plan ${plan}: data[0].format: ${jsonWhy('official').slice('bt: invalid --format: '.length, -1)}\n` });

    // The layouts that fit still read: freqtrade or auto for JSON, auto for Arrow.
    for (const args of [['validate', json, '--format', 'freqtrade'], ['validate', json, '--format', 'auto'], ['validate', arrow, '--format', 'auto']]) {
      assert.equal((await bt(args)).code, 0, args.join(' '));
    }
  } finally {
    tmp.remove();
  }
});
