import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LocalStorage, StoragePathError } from '../src/storage/index.js';

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

  it('follows a symlink that stays inside the root', async () => {
    await storage.write('library/EURUSD.csv', 'Datetime,Open');
    symlinkSync(join(base, 'root', 'library'), join(base, 'root', 'alias'));
    assert.equal(Buffer.from(await storage.read('alias/EURUSD.csv')).toString(), 'Datetime,Open');
  });
});
