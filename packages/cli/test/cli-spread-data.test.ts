// --spread-from-data with a negative value in the file's Spread column is refused once the file is
// read, naming the file and the candle (src/costs.ts checkSpreadData): core refused it inside each
// run, so bt optimize reported every combination as refused and exited 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bt, EURUSD_H1, mapLimit, tempDir } from './helpers.js';

test('a negative spread in the Spread column is exit 1 naming the file, for backtest, optimize and walk-forward', async () => {
  const tmp = tempDir();
  try {
    const [header, ...rows] = readFileSync(EURUSD_H1, 'utf8').trimEnd().split('\n');
    const data = join(tmp.dir, 'EURUSD_H1_spread.csv');
    writeFileSync(data, [`${header},Spread`, ...rows.map((r, i) => `${r},${i === 9 ? -50 : 12}`)].join('\n') + '\n');
    const base = ['--data', data, '--strategy', 'englobante_entry', '--sl', '10', '--tp1', '10', '--spread-from-data'];
    const cases = [['backtest', ...base], ['optimize', ...base, '--no-progress', '--csv', '-'], ['walk-forward', ...base, '--in-sample', '60d', '--out-of-sample', '30d', '--no-progress', '--csv', '-']];
    const runs = await mapLimit(cases, 2, (args) => bt(args));
    const message = `bt: ${data}: the Spread column holds -50 at 2017-04-19T18:00:00.000Z (candle 10): --spread-from-data needs spreads ≥ 0 in points\n`;
    runs.forEach((run, i) => assert.deepEqual(run, { code: 1, stdout: '', stderr: message }, cases[i][0]));
    // Without the flag the column is not used, and the run goes on.
    const plain = await bt(['backtest', ...base.slice(0, -1)]);
    assert.equal(plain.code, 0, plain.stderr);
  } finally {
    tmp.remove();
  }
});
