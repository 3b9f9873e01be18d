import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readWorkbookMeta } from '@bt/core/report';
import { openDatabase, type Database } from '../src/db/index.js';
import { S3Storage, s3Client } from '../src/storage/s3.js';
import { startTestApp, type TestApp } from './support/app.js';
import { TEST_DIALECT, openTestDatabase, type TestDatabase } from './support/db.js';
import { seededLibraryDir } from './support/library.js';
import { startLocalS3, type LocalS3 } from './support/s3.js';
import { funded, runBacktest } from './support/work.js';

/**
 * Two API servers on one database and one bucket (docs/deployment.md): each has its own database
 * connection and its own S3 client, as two machines would; nothing passes between them but the
 * database and the bucket.
 */
let s3: LocalS3;
let tdb: TestDatabase;
let secondDb: Database;
let a: TestApp;
let b: TestApp;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((p) => statSync(join(dir, p)).isFile()).map((p) => relative(dir, join(dir, p)));
}

function bucketStorages(settings: Awaited<ReturnType<LocalS3['bucket']>>) {
  const client = s3Client(settings);
  return { storage: new S3Storage(client, settings.bucket, 'files'), library: new S3Storage(client, settings.bucket, 'library') };
}

before(async () => {
  s3 = await startLocalS3();
  const settings = await s3.bucket();
  // The series the runs use (EURUSD M15) of the seeded library goes into the bucket: the CSVs
  // first, their Arrow copies after.
  const seeded = await seededLibraryDir('basic');
  const upload = bucketStorages(settings).library;
  const files = filesUnder(seeded).filter((f) => f.startsWith('EURUSD/M15/')).sort((x, y) => Number(x.endsWith('.arrow')) - Number(y.endsWith('.arrow')));
  for (let i = 0; i < files.length; i += 16) await Promise.all(files.slice(i, i + 16).map((f) => upload.write(f, readFileSync(join(seeded, f)))));
  tdb = await openTestDatabase();
  secondDb = await openDatabase(tdb.url, { dataDir: '/nonexistent' });
  a = await startTestApp(tdb.db, { storages: bucketStorages(settings) });
  b = await startTestApp(secondDb, { storages: bucketStorages(settings) });
  const indexed = await a.app.services.datasets.reindex();
  assert.deepEqual(indexed.errors, []);
});
after(async () => {
  await a?.close();
  await b?.close();
  await secondDb?.close();
  await tdb?.drop();
  await s3?.close();
});

describe(`two API servers, one database and one bucket (${TEST_DIALECT})`, () => {
  it('a backtest run on A: its workbook downloads from B, its result lists on B, the CSV library reads from the bucket', async () => {
    const trader = await funded(a, 20);
    const run = await runBacktest(a, trader.key);
    assert.equal(run.status, 200, run.text);
    const folder = run.body.folder as string;

    const listed = await b.request('GET', '/api/user/backtests', { key: trader.key });
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.items.map((i: { folder: string }) => i.folder), [folder]);

    const download = await fetch(`${b.url}/api/download/${folder}.xlsx?folder=${folder}&apiKey=${trader.key}`);
    assert.equal(download.status, 200);
    const meta = await readWorkbookMeta(new Uint8Array(await download.arrayBuffer()));
    assert.ok(meta.sheets.some((s: { name: string }) => s.name === 'Trades'), 'a whole workbook');

    const sheet = await b.request('GET', `/api/user/backtests/xlsx/sheet?folder=${folder}&sheet=Global&limit=5`, { key: trader.key });
    assert.equal(sheet.status, 200, sheet.text);

    // B runs one too, from the same library in the bucket; A serves it.
    const again = await runBacktest(b, trader.key, { strategy: 'ob_pullback_pure' });
    assert.equal(again.status, 200, again.text);
    const fromA = await fetch(`${a.url}/api/download/${again.body.folder}.xlsx?folder=${again.body.folder}&apiKey=${trader.key}`);
    assert.equal(fromA.status, 200);
    assert.ok((await fromA.arrayBuffer()).byteLength > 1000);
  });
});
