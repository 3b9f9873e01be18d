/**
 * The kept database the browser tests' servers start from (test/support/library-cache.ts;
 * docs/development.md, "The browser tests' servers start from a kept index"): a consistent copy
 * taken while its server writes, never overwritten, and named after what a start writes.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import sqlite3 from 'sqlite3';
import { copyKeptIndex, keepIndex, keptIndexFile } from './support/library-cache.js';

const work = mkdtempSync(join(tmpdir(), 'bt-kept-index-'));
after(() => rmSync(work, { recursive: true, force: true }));

type Db = InstanceType<typeof sqlite3.Database>;
const open = (file: string) => new Promise<Db>((resolve, reject) => {
  const db: Db = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(db)));
});
const run = (db: Db, sql: string, params: unknown[] = []) => new Promise<void>((resolve, reject) => db.run(sql, params, (err) => (err ? reject(err) : resolve())));
const all = <T>(db: Db, sql: string) => new Promise<T[]>((resolve, reject) => db.all(sql, (err, rows) => (err ? reject(err) : resolve(rows as T[]))));
const close = (db: Db) => new Promise<void>((resolve) => db.close(() => resolve()));

describe("the browser tests' kept database", () => {
  it('is a whole copy taken while its server writes, copied back as a fresh database, and never replaced', async () => {
    const dbFile = join(work, 'bt.sqlite');
    const server = await open(dbFile);
    await run(server, 'PRAGMA journal_mode = WAL');
    await run(server, 'CREATE TABLE datasets (id INTEGER PRIMARY KEY, path TEXT NOT NULL, rows INTEGER NOT NULL)');
    for (let i = 0; i < 823; i++) await run(server, 'INSERT INTO datasets (path, rows) VALUES (?, ?)', [`EURUSD/M5/EURUSD_M5_${i}.csv`, i]);
    // The server goes on writing, in transactions of ten rows, while the copy is taken.
    let writing = true;
    const writes = (async () => {
      while (writing) {
        await run(server, 'BEGIN IMMEDIATE');
        for (let i = 0; i < 10; i++) await run(server, 'INSERT INTO datasets (path, rows) VALUES (?, ?)', ['late', -1]);
        await run(server, 'COMMIT');
      }
    })();
    const kept = join(work, 'kept.sqlite');
    await keepIndex(dbFile, kept);
    writing = false;
    await writes;
    await close(server);
    assert.ok(existsSync(kept));
    assert.deepEqual(readdirSync(work).filter((name) => name.startsWith('kept.sqlite-')), [], 'no work file left beside it');

    const copy = join(work, 'copy.sqlite');
    assert.equal(copyKeptIndex(kept, copy), true);
    const db = await open(copy);
    assert.deepEqual(await all(db, 'PRAGMA integrity_check'), [{ integrity_check: 'ok' }]);
    const [{ months, late }] = await all<{ months: number; late: number }>(db, "SELECT SUM(path <> 'late') AS months, SUM(path = 'late') AS late FROM datasets");
    assert.equal(months, 823);
    assert.equal(late % 10, 0, 'whole transactions only');
    await close(db);

    // Another process may have kept one first: it stays.
    const before = readdirSync(work).length;
    const other = await open(join(work, 'other.sqlite'));
    await run(other, 'CREATE TABLE t (x)');
    await close(other);
    await keepIndex(join(work, 'other.sqlite'), kept);
    const again = await open(kept);
    assert.equal((await all(again, "SELECT name FROM sqlite_master WHERE name = 't'")).length, 0, 'the first copy kept');
    await close(again);
    assert.equal(readdirSync(work).length, before + 1);
    assert.equal(copyKeptIndex(join(work, 'none.sqlite'), join(work, 'x.sqlite')), false, 'nothing kept, nothing copied');
  });

  it("is named after the kept library, the server's database code and bootstraps, and the admin account", () => {
    const root = join(work, 'repo');
    const src = join(root, 'packages', 'server', 'src');
    mkdirSync(join(src, 'db', 'migrations'), { recursive: true });
    mkdirSync(join(src, 'users'), { recursive: true });
    writeFileSync(join(src, 'db', 'migrations', '0001-start.ts'), 'export const up = 1;\n');
    writeFileSync(join(src, 'users', 'bootstrap.ts'), 'export const admin = 1;\n');
    const name = () => keptIndexFile('/tmp/bt-e2e-library-abc', root, 'admin@bt.test secret');
    const first = name();
    assert.match(first, /^\/tmp\/bt-e2e-library-abc-index-[0-9a-f]{16}\.sqlite$/);
    assert.equal(name(), first, 'the same inputs, the same file');
    assert.notEqual(keptIndexFile('/tmp/bt-e2e-library-abc', root, 'admin@bt.test other'), first, 'another admin');
    assert.notEqual(keptIndexFile('/tmp/bt-e2e-library-def', root, 'admin@bt.test secret'), first, 'another library');
    writeFileSync(join(src, 'db', 'migrations', '0002-more.ts'), 'export const up = 2;\n');
    const migrated = name();
    assert.notEqual(migrated, first, 'a new migration');
    writeFileSync(join(src, 'users', 'bootstrap.ts'), 'export const admin = 2;\n');
    assert.notEqual(name(), migrated, "the admin's bootstrap changed");
  });
});
