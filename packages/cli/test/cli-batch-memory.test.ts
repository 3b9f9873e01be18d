// A batch worker keeps the data files it has read for its later runs, but only the last two
// (batch/worker.ts KEPT_DATA_FILES): keeping every one grew without bound, 780 MB for a plan over
// 300 files of 24,000 candles, gigabytes per worker for a library of M1 files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bin, fixture, tempDir } from './helpers.js';

const TIME = '/usr/bin/time';

test('a plan over 400 data files runs in bounded memory', { skip: !existsSync(TIME) && `${TIME} is not installed` }, () => {
  const tmp = tempDir();
  try {
    const plan = join(tmp.dir, 'plan.yaml');
    const entry = `  - { path: ${fixture('smc/EURUSD_15M.csv')}, utc_offset: "+02:00" }\n`;
    writeFileSync(plan, `strategies: [englobante_entry]\ndata:\n${entry.repeat(400)}sl: 10\ntp1: 10\n`);
    const run = spawnSync(TIME, ['-f', 'max-rss-kb %M', process.execPath, bin, 'batch', plan, '--no-progress', '--concurrency', '1', '--csv', join(tmp.dir, 'runs.csv')], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /400 runs in .* 400 ok, 0 failed/);
    const kb = Number(/max-rss-kb (\d+)/.exec(run.stderr)?.[1]);
    // Each file read is about 2.5 MB of columns: all 400 kept were about 1 GB.
    assert.ok(kb > 0 && kb < 500 * 1024, `${Math.round(kb / 1024)} MB`);
  } finally {
    tmp.remove();
  }
});
