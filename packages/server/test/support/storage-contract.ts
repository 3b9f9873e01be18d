import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StoragePathError, type Storage } from '../../src/storage/index.js';

/**
 * What every storage backend promises (src/storage/types.ts), run against each of them: the
 * local disk (test/storage.test.ts) and an S3-compatible server (test/storage-s3.test.ts).
 */
export function storageContract(name: string, storageOf: () => Storage, options: { concurrentReadsOfRewrite?: boolean } = {}): void {
  const concurrentReads = options.concurrentReadsOfRewrite ?? true;
  const text = async (s: Storage, path: string) => Buffer.from(await s.read(path)).toString();

  describe(`storage contract: ${name}`, () => {
    it('writes, reads, overwrites and tells what exists', async () => {
      const s = storageOf();
      await s.write('results/EURUSD_M15/report.xlsx', 'data');
      await s.write('results/EURUSD_M15/report.xlsx', new Uint8Array([0x64, 0x61, 0x74, 0x61, 0x32]));
      assert.equal(await text(s, 'results/EURUSD_M15/report.xlsx'), 'data2');
      assert.equal(await text(s, 'results/./EURUSD_M15//report.xlsx'), 'data2');
      assert.equal(await s.exists('results/EURUSD_M15/report.xlsx'), true);
      assert.equal(await s.exists('results/EURUSD_M15'), true, 'a directory exists');
      assert.equal(await s.exists('results/none.xlsx'), false);
      await s.write('unicode/données é.csv', 'é');
      assert.equal(await text(s, 'unicode/données é.csv'), 'é');
    });

    it('fails a missing file with ENOENT, for reads and streams alike', async () => {
      const s = storageOf();
      await assert.rejects(s.read('missing/file.txt'), (err: NodeJS.ErrnoException) => err.code === 'ENOENT');
      await assert.rejects(s.readStream('missing/file.txt'), (err: NodeJS.ErrnoException) => err.code === 'ENOENT');
    });

    it('streams a file of several megabytes whole', async () => {
      const s = storageOf();
      const big = Buffer.alloc(3 * 1024 * 1024 + 7);
      for (let i = 0; i < big.length; i++) big[i] = (i * 31) & 0xff;
      await s.write('big/file.bin', big);
      const chunks: Buffer[] = [];
      const { stream, bytes } = await s.readStream('big/file.bin');
      for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
      assert.ok(Buffer.concat(chunks).equals(big));
      assert.equal(bytes, big.length);
      assert.equal((await s.stat('big/file.bin'))?.bytes, big.length);
    });

    it('lists names and entries sorted, files and directories, empty for a missing directory', async () => {
      const s = storageOf();
      await s.write('listing/b.csv', 'bb');
      await s.write('listing/a.csv', 'abc');
      await s.write('listing/sub/c.csv', 'c');
      assert.deepEqual(await s.list('listing'), ['a.csv', 'b.csv', 'sub']);
      const entries = await s.entries('listing');
      assert.deepEqual(entries.map((e) => [e.name, e.type, e.bytes]), [['a.csv', 'file', 3], ['b.csv', 'file', 2], ['sub', 'dir', 0]]);
      assert.ok(entries.every((e) => e.mtime instanceof Date && !Number.isNaN(e.mtime.getTime())));
      assert.deepEqual(await s.list('listing/none'), []);
      assert.deepEqual(await s.entries('listing/none'), []);
      assert.ok((await s.list('')).includes('listing'));
      assert.ok(!(await s.list('')).includes('.staging'));
    });

    it('stats a file, a directory and nothing', async () => {
      const s = storageOf();
      await s.write('stats/x/file.txt', 'hello');
      const file = await s.stat('stats/x/file.txt');
      assert.deepEqual([file?.name, file?.type, file?.bytes], ['file.txt', 'file', 5]);
      assert.ok(Math.abs(file!.mtime.getTime() - Date.now()) < 120_000, 'a recent time');
      const dir = await s.stat('stats/x');
      assert.deepEqual([dir?.name, dir?.type, dir?.bytes], ['x', 'dir', 0]);
      assert.equal(await s.stat('stats/none'), null);
    });

    it('removes a file, a whole directory, never the root', async () => {
      const s = storageOf();
      await s.write('gone/a.txt', 'a');
      await s.write('gone/deep/b.txt', 'b');
      await s.write('kept.txt', 'k');
      await s.remove('gone/a.txt');
      assert.equal(await s.exists('gone/a.txt'), false);
      assert.equal(await s.exists('gone/deep/b.txt'), true);
      await s.remove('gone');
      assert.equal(await s.exists('gone'), false);
      assert.deepEqual(await s.list('gone'), []);
      await s.remove('not/there');
      await assert.rejects(s.remove(''), StoragePathError);
      assert.equal(await text(s, 'kept.txt'), 'k');
    });

    it('refuses .., absolute paths, backslashes, NUL and control characters', async () => {
      const s = storageOf();
      for (const path of ['../outside/secret.txt', 'a/../../outside/secret.txt', 'a/..', '/etc/passwd', 'C:/Windows', 'a\\..\\b', 'a\0b', 'a\nb']) {
        await assert.rejects(s.resolve(path), StoragePathError, path);
        await assert.rejects(s.read(path), StoragePathError, path);
        await assert.rejects(s.write(path, 'x'), StoragePathError, path);
        await assert.rejects(s.remove(path), StoragePathError, path);
      }
    });

    it('never shows a partial file: readers during a rewrite see the old bytes or the new ones', async () => {
      const s = storageOf();
      const a = Buffer.alloc(1024 * 1024, 0x61);
      const b = Buffer.alloc(1024 * 1024 + 5, 0x62);
      await s.write('atomic/file.bin', a);
      const reads: Promise<Uint8Array>[] = [];
      const writing = s.write('atomic/file.bin', b);
      if (concurrentReads) for (let i = 0; i < 6; i++) reads.push(s.read('atomic/file.bin'));
      await writing;
      for (const got of await Promise.all(reads)) assert.ok(Buffer.from(got).equals(a) || Buffer.from(got).equals(b), `a read of ${got.length} bytes`);
      assert.ok(Buffer.from(await s.read('atomic/file.bin')).equals(b));
      assert.equal(await s.clearStaging(), 0, 'a finished write leaves nothing to clear');
    });

    it('stages bytes at no path, publishes them whole over what is there, or discards them', async () => {
      const s = storageOf();
      await s.write('staged/report.xlsx', 'old');
      const kept = await s.stage('new bytes');
      const dropped = await s.stage(new Uint8Array([1, 2, 3]));
      assert.deepEqual([kept.bytes, dropped.bytes], [9, 3]);
      assert.equal(await text(s, 'staged/report.xlsx'), 'old', 'staged bytes are nowhere yet');
      assert.deepEqual(await s.list('staged'), ['report.xlsx']);
      await s.publish(kept, 'staged/report.xlsx');
      assert.equal(await text(s, 'staged/report.xlsx'), 'new bytes');
      await assert.rejects(s.publish(kept, 'staged/again.xlsx'), /already published or discarded/);
      await s.discard(dropped);
      await s.discard(dropped);
      await s.discard(kept);
      await assert.rejects(s.publish(dropped, 'staged/dropped.xlsx'), /already published or discarded/);
      assert.deepEqual(await s.list('staged'), ['report.xlsx']);
      const fresh = await s.stage('x');
      await s.publish(fresh, 'staged/new/folder/file.txt');
      assert.equal(await text(s, 'staged/new/folder/file.txt'), 'x', 'its folder made');
      const refused = await s.stage('x');
      await assert.rejects(s.publish(refused, '../outside.txt'), StoragePathError);
      await s.discard(refused);
      assert.equal(await s.clearStaging(), 0, 'nothing left in staging');
    });
  });
}
