// Temporary files a killed writer left (a SIGKILL cannot be caught) are removed by the next write
// into their folder, when their name says this host and a process that has ended; nothing else is
// touched (src/node/write-file.ts sweepStaleTempFiles).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { writeFileWhole } from '@bt/core/node';
import { TEMP_HOST_TAG } from '../src/node/write-file.js';

const dir = mkdtempSync(join(tmpdir(), 'bt-stale-temp-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The pid of a process that has ended. */
function deadPid(): number {
  const run = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(run.stdout);
}

test("a killed writer's temporary file goes at the next write into its folder; live writers', other hosts' and other names stay", async () => {
  const other = TEMP_HOST_TAG === 'ffff' ? '0000' : 'ffff';
  const dead = deadPid();
  const names = {
    stale: `.out.csv.0123456789ab.${TEMP_HOST_TAG}-${dead}.tmp`,
    staleOtherOutput: `.run.xlsx.ba9876543210.${TEMP_HOST_TAG}-${dead}.tmp`,
    ownPid: `.out.csv.0123456789ab.${TEMP_HOST_TAG}-${process.pid}.tmp`,
    livePid: `.out.csv.0123456789ab.${TEMP_HOST_TAG}-${process.ppid}.tmp`,
    otherHost: `.out.csv.0123456789ab.${other}-${dead}.tmp`,
    olderForm: '.out.csv.0123456789ab.tmp',
    notOurs: `out.csv.0123456789ab.${TEMP_HOST_TAG}-${dead}.tmp`,
  };
  for (const name of Object.values(names)) writeFileSync(join(dir, name), 'half a file');
  await writeFileWhole(join(dir, 'next.csv'), 'whole');
  const left = readdirSync(dir).sort();
  assert.deepEqual(left, [names.olderForm, names.otherHost, names.livePid, names.ownPid, names.notOurs, 'next.csv'].sort());
});

test('the temporary file names its host and process while it is written', async () => {
  const sub = mkdtempSync(join(dir, 'named-'));
  let seen: string[] = [];
  async function* pieces(): AsyncGenerator<string> {
    yield 'a';
    seen = readdirSync(sub);
    yield 'b';
  }
  await writeFileWhole(join(sub, 'x.csv'), pieces());
  assert.equal(seen.length, 1);
  assert.match(seen[0], new RegExp(`^\\.x\\.csv\\.[0-9a-f]{12}\\.${TEMP_HOST_TAG}-${process.pid}\\.tmp$`));
  assert.deepEqual(readdirSync(sub), ['x.csv']);
});
