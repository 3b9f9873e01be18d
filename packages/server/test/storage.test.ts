import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LocalStorage, StoragePathError } from '../src/storage/index.js';
import { STALE_STAGING_MS, stagingFileName } from '../src/storage/local.js';
import { storageContract } from './support/storage-contract.js';

let base: string;
let storage: LocalStorage;

before(() => {
  base = mkdtempSync(join(tmpdir(), 'bt-storage-test-'));
  mkdirSync(join(base, 'root'));
  mkdirSync(join(base, 'outside'));
  writeFileSync(join(base, 'outside', 'secret.txt'), 'secret');
  storage = new LocalStorage(join(base, 'root'));
});
after(() => rmSync(base, { recursive: true, force: true }));

storageContract('local disk', () => new LocalStorage(join(base, 'contract')));

describe('LocalStorage', () => {
  it('writes, reads, lists and removes inside its root', async () => {
    await storage.write('results/EURUSD_M15/report.xlsx', 'data');
    assert.equal(Buffer.from(await storage.read('results/EURUSD_M15/report.xlsx')).toString(), 'data');
    assert.equal(await storage.exists('results/EURUSD_M15/report.xlsx'), true);
    assert.deepEqual(await storage.list('results'), ['EURUSD_M15']);
    assert.deepEqual(await storage.list('nothing/here'), []);
    assert.equal(await storage.resolve('results/./EURUSD_M15//report.xlsx'), join(base, 'root', 'results', 'EURUSD_M15', 'report.xlsx'));
    await storage.remove('results/EURUSD_M15');
    assert.equal(await storage.exists('results/EURUSD_M15/report.xlsx'), false);
  });

  it('refuses .., absolute paths, backslashes and NUL bytes', async () => {
    for (const path of ['../outside/secret.txt', 'a/../../outside/secret.txt', 'a/..', '/etc/passwd', 'C:/Windows', 'a\\..\\b', 'a\0b']) {
      await assert.rejects(storage.resolve(path), StoragePathError, path);
      await assert.rejects(storage.read(path), StoragePathError, path);
    }
  });

  it('refuses a symlink that leads out of the root, for reads and for writes below it', async () => {
    symlinkSync(join(base, 'outside'), join(base, 'root', 'escape'));
    await assert.rejects(storage.read('escape/secret.txt'), /outside the storage root/);
    await assert.rejects(storage.write('escape/new.txt', 'x'), /outside the storage root/);
    await assert.rejects(storage.write('escape/deeper/new.txt', 'x'), /outside the storage root/);
    symlinkSync(join(base, 'outside', 'secret.txt'), join(base, 'root', 'file-link'));
    await assert.rejects(storage.read('file-link'), /outside the storage root/);
  });

  it('a write replaces a link of the same name, never writes through it (inside or outside the root)', async () => {
    symlinkSync(join(base, 'outside', 'secret.txt'), join(base, 'root', 'planted.txt'));
    await storage.write('planted.txt', 'mine');
    assert.equal(readFileSync(join(base, 'outside', 'secret.txt'), 'utf8'), 'secret');
    assert.equal(lstatSync(join(base, 'root', 'planted.txt')).isSymbolicLink(), false);
    assert.equal(Buffer.from(await storage.read('planted.txt')).toString(), 'mine');
    await storage.write('inside/target.txt', 'target');
    symlinkSync(join(base, 'root', 'inside', 'target.txt'), join(base, 'root', 'inside', 'alias.txt'));
    await storage.write('inside/alias.txt', 'alias');
    assert.equal(Buffer.from(await storage.read('inside/target.txt')).toString(), 'target');
    assert.equal(lstatSync(join(base, 'root', 'inside', 'alias.txt')).isSymbolicLink(), false);
  });

  it('a write makes missing folders, refuses the root itself and a folder in place of the file', async () => {
    await storage.write('a/b/c/d.txt', 'deep');
    assert.equal(Buffer.from(await storage.read('a/b/c/d.txt')).toString(), 'deep');
    await storage.write('a/b/c/d.txt', 'again');
    assert.equal(Buffer.from(await storage.read('a/b/c/d.txt')).toString(), 'again');
    await assert.rejects(storage.write('', 'x'), StoragePathError);
    await assert.rejects(storage.write('./', 'x'), StoragePathError);
    await assert.rejects(storage.write('a/b', 'x'), (err: NodeJS.ErrnoException) => ['EISDIR', 'ENOTEMPTY', 'EEXIST'].includes(err.code ?? ''));
    assert.equal(Buffer.from(await storage.read('a/b/c/d.txt')).toString(), 'again');
    assert.deepEqual(await storage.list('.staging'), []);
  });

  it('follows a symlink that stays inside the root', async () => {
    await storage.write('library/EURUSD.csv', 'Datetime,Open');
    symlinkSync(join(base, 'root', 'library'), join(base, 'root', 'alias'));
    assert.equal(Buffer.from(await storage.read('alias/EURUSD.csv')).toString(), 'Datetime,Open');
  });
});

describe('LocalStorage, entries and removal', () => {
  it('removes a link, never what it leads to; never the root', async () => {
    await storage.write('kept/target.txt', 'keep me');
    symlinkSync(join(base, 'root', 'kept', 'target.txt'), join(base, 'root', 'kept-link.txt'));
    symlinkSync(join(base, 'root', 'kept'), join(base, 'root', 'kept-dir-link'));
    await storage.remove('kept-link.txt');
    await storage.remove('kept-dir-link');
    assert.equal(Buffer.from(await storage.read('kept/target.txt')).toString(), 'keep me');
    assert.deepEqual((await storage.list('')).filter((n) => n.startsWith('kept')), ['kept']);
    await assert.rejects(storage.remove(''), StoragePathError);
    await assert.rejects(storage.remove('escape/secret.txt'), /outside the storage root/);
  });

  it('lists entries with type, size and time, links out of the root left out; stat says null for them', async () => {
    await storage.write('listing/a.csv', 'abc');
    await storage.write('listing/sub/b.csv', 'b');
    symlinkSync(join(base, 'outside'), join(base, 'root', 'listing', 'out'));
    symlinkSync(join(base, 'root', 'listing', 'sub'), join(base, 'root', 'listing', 'in'));
    const entries = await storage.entries('listing');
    assert.deepEqual(entries.map((e) => [e.name, e.type, e.bytes]), [['a.csv', 'file', 3], ['in', 'dir', 0], ['sub', 'dir', 0]]);
    assert.ok(entries.every((e) => e.mtime instanceof Date));
    assert.equal(await storage.stat('listing/out'), null);
    assert.equal(await storage.stat('listing/none'), null);
    assert.deepEqual(await storage.entries('listing/none'), []);
    assert.equal((await storage.stat('listing/a.csv'))?.bytes, 3);
  });

  it('writes atomically through the staging folder, which stays hidden and is cleared', async () => {
    await storage.write('atomic/file.txt', 'first');
    await storage.write('atomic/file.txt', 'second');
    assert.equal(Buffer.from(await storage.read('atomic/file.txt')).toString(), 'second');
    assert.ok(!(await storage.list('')).includes('.staging'));
    assert.ok(!(await storage.entries('')).some((e) => e.name === '.staging'));
    assert.deepEqual(readdirSync(join(base, 'root', '.staging')), [], 'nothing left by the writes');
    // Left by a process of this host that has ended (a kill): cleared.
    writeFileSync(join(base, 'root', '.staging', stagingFileName(spawnSync(process.execPath, ['-e', '']).pid!)), 'partial');
    assert.equal(await storage.clearStaging(), 1);
    assert.equal(await storage.clearStaging(), 0);
    const chunks: Buffer[] = [];
    for await (const chunk of (await storage.readStream('atomic/file.txt')).stream) chunks.push(chunk as Buffer);
    assert.equal(Buffer.concat(chunks).toString(), 'second');
    await assert.rejects(storage.readStream('atomic/none.txt'), /ENOENT/);
  });

  it('clearing the staging folder leaves the writes of live processes alone', async () => {
    const staging = join(base, 'root', '.staging');
    mkdirSync(staging, { recursive: true });
    // Another server or a bt-worker of this DATA_DIR, mid-write: its file is about to be renamed.
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      const writing = [stagingFileName(live.pid!), stagingFileName()];
      for (const name of writing) writeFileSync(join(staging, name), 'in progress');
      // A name of another form (an older server, another host): cleared only once it is an hour old.
      writeFileSync(join(staging, 'a1b2c3d4e5f60718.tmp'), 'recent');
      writeFileSync(join(staging, 'f0e1d2c3b4a59687.tmp'), 'old');
      const old = (Date.now() - STALE_STAGING_MS - 60_000) / 1000;
      utimesSync(join(staging, 'f0e1d2c3b4a59687.tmp'), old, old);
      assert.equal(await storage.clearStaging(), 1);
      assert.deepEqual(readdirSync(staging).sort(), [...writing, 'a1b2c3d4e5f60718.tmp'].sort());
    } finally {
      live.kill();
      rmSync(staging, { recursive: true, force: true });
    }
  });

  it('makes the staging folder again when it was removed since the last write', async () => {
    await storage.write('again/file.txt', 'first');
    rmSync(join(base, 'root', '.staging'), { recursive: true, force: true });
    await storage.write('again/file.txt', 'second');
    assert.equal(Buffer.from(await storage.read('again/file.txt')).toString(), 'second');
  });
});
