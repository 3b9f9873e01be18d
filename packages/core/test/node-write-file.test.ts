// Files written for a user appear whole or not at all (src/node/write-file.ts): a write that fails
// half-way leaves the previous file and no temporary one; links, permissions and devices are kept.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, createReadStream, lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { candlesFromColumns } from '@bt/core/candles';
import { onTempFile, readCandlesFile, removeUnfinishedTempFiles, trackTempFile, unfinishedTempFiles, writeCandlesFile, writeFileWhole } from '@bt/core/node';

const dir = mkdtempSync(join(tmpdir(), 'bt-write-file-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Pieces, then a failure half-way (a full disk, a conversion that throws). */
async function* failingHalfWay(): AsyncGenerator<string> {
  yield 'first piece,';
  yield 'second piece,';
  throw new Error('ENOSPC: no space left on device, write');
}

test('a write that fails half-way leaves the previous file whole and no temporary file', async () => {
  const path = join(dir, 'golden.json');
  writeFileSync(path, '{"previous": true}\n');
  await assert.rejects(writeFileWhole(path, failingHalfWay()), /ENOSPC/);
  assert.equal(readFileSync(path, 'utf8'), '{"previous": true}\n');
  assert.deepEqual(readdirSync(dir), ['golden.json']);
  const fresh = join(dir, 'fresh.csv');
  await assert.rejects(writeFileWhole(fresh, failingHalfWay()), /ENOSPC/);
  assert.deepEqual(readdirSync(dir), ['golden.json'], 'nothing appears where nothing was');
});

test('an error names the file asked for, never the temporary one', async () => {
  const missing = join(dir, 'no-such-folder', 'x.csv');
  await assert.rejects(writeFileWhole(missing, 'x'), (e: NodeJS.ErrnoException) => e.code === 'ENOENT' && e.path === missing && e.message.includes(`'${missing}'`) && !e.message.includes('.tmp'));
  await assert.rejects(writeFileWhole(dir, 'x'), { code: 'EISDIR' });
});

test('strings, bytes and pieces are written whole; an existing file keeps its permissions', async () => {
  const path = join(dir, 'out.csv');
  writeFileSync(path, 'old');
  chmodSync(path, 0o640);
  await writeFileWhole(path, ['a,b\n', new TextEncoder().encode('1,2\n'), '3,4\n']);
  assert.equal(readFileSync(path, 'utf8'), 'a,b\n1,2\n3,4\n');
  assert.equal(statSync(path).mode & 0o777, 0o640);
  const big = new Uint8Array(3 << 20).fill(7);
  await writeFileWhole(path, big);
  assert.deepEqual(readFileSync(path), Buffer.from(big));
});

test('a link is followed (the file it leads to is replaced, the link stays); a device is written in place', async () => {
  const real = join(dir, 'real.txt');
  const link = join(dir, 'link.txt');
  writeFileSync(real, 'before');
  symlinkSync(real, link);
  await writeFileWhole(link, 'after');
  assert.ok(lstatSync(link).isSymbolicLink());
  assert.equal(readlinkSync(link), real);
  assert.equal(readFileSync(real, 'utf8'), 'after');
  await writeFileWhole('/dev/null', 'nothing kept');
  assert.ok(statSync('/dev/null').isCharacterDevice(), '/dev/null is still the device');
  const pipe = join(dir, 'pipe');
  assert.equal(spawnSync('mkfifo', [pipe]).status, 0);
  const read = new Promise<string>((resolve) => {
    let text = '';
    createReadStream(pipe, 'utf8').on('data', (d) => (text += d)).on('end', () => resolve(text));
  });
  await writeFileWhole(pipe, 'through the pipe');
  assert.equal(await read, 'through the pipe');
  assert.ok(lstatSync(pipe).isFIFO(), 'the pipe is still a pipe');
});

test('writeCandlesFile writes through it: a converted file reads back equal, every format', async () => {
  const candles = candlesFromColumns({
    time: Float64Array.from({ length: 50 }, (_, i) => Date.UTC(2024, 0, 1) + i * 3_600_000),
    open: Float64Array.from({ length: 50 }, (_, i) => 1.1 + i * 1e-4),
    high: Float64Array.from({ length: 50 }, (_, i) => 1.1005 + i * 1e-4),
    low: Float64Array.from({ length: 50 }, (_, i) => 1.0995 + i * 1e-4),
    close: Float64Array.from({ length: 50 }, (_, i) => 1.1002 + i * 1e-4),
    volume: new Float64Array(50).fill(10),
  });
  for (const name of ['c.csv', 'c.xlsx', 'c.arrow', 'c.json']) {
    const path = join(dir, name);
    await writeCandlesFile(path, candles);
    const back = await readCandlesFile(path);
    assert.deepEqual(back.candles.close, candles.close, name);
  }
  assert.ok(!readdirSync(dir).some((f) => f.endsWith('.tmp')), 'no temporary file left');
});

test('the temporary files being written are known, and removed at once by removeUnfinishedTempFiles (a signal handler)', async () => {
  const path = join(dir, 'slow.csv');
  let release!: () => void;
  const paused = new Promise<void>((r) => (release = r));
  let started!: () => void;
  const writing = new Promise<void>((r) => (started = r));
  async function* slow(): AsyncGenerator<string> {
    yield 'first piece,';
    started();
    await paused;
    yield 'second piece';
  }
  const seen: [string, boolean][] = [];
  const stop = onTempFile((temp, on) => seen.push([temp, on]));
  const done = writeFileWhole(path, slow());
  await writing;
  const [temp] = unfinishedTempFiles();
  assert.match(temp, /[/]\.slow\.csv\.[0-9a-f]{12}\.[0-9a-f]{4}-\d+\.tmp$/);
  assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('.slow')), [temp.slice(dir.length + 1)]);
  // As a SIGINT handler would: synchronous, the temporary file gone before the process ends.
  assert.deepEqual(removeUnfinishedTempFiles(), [temp]);
  assert.deepEqual(unfinishedTempFiles(), []);
  assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('.slow')), []);
  release();
  // The write itself then fails (its file is gone), leaving nothing.
  await assert.rejects(done, /slow\.csv/);
  stop();
  assert.deepEqual(seen, [[temp, true], [temp, false]]);
  // A finished write leaves nothing to remove; another thread's temporary files can be recorded.
  await writeFileWhole(path, 'whole');
  assert.deepEqual(unfinishedTempFiles(), []);
  const other = join(dir, '.other.tmp');
  writeFileSync(other, 'x');
  trackTempFile(other, true);
  assert.deepEqual(removeUnfinishedTempFiles(), [other]);
  assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('.')), []);
});
