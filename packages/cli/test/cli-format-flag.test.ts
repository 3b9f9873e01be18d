// `--format freqtrade` (and a plan's `format: freqtrade`) names freqtrade's JSON files: given for
// a CSV file it is a usage error in the CLI's words; it was core's "use readCandlesJson or
// readCandles", exit 1, after the flags had been accepted (src/options.ts checkFormatFor).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
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
