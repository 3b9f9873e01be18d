import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { randomUUID } from 'node:crypto';
import { S3Storage, s3Client } from '../src/storage/s3.js';
import { LocalStorage } from '../src/storage/local.js';
import { retryRemovals } from '../src/storage/removals.js';
import { chargeRun } from '../src/backtests/charge.js';
import { useTestApp } from './support/app.js';
import { copySeededLibrary } from './support/library.js';
import { startLocalS3, type LocalS3 } from './support/s3.js';
import { BREAKOUT_PY, balance, funded, importStrategy, runBacktest } from './support/work.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Deleting what a row names when the storage refuses the removal (docs/server.md "Files left
 * behind"): a result, a personal strategy, a stale run given up, on an S3 bucket whose batch
 * deletes answer 500 (a proxy in front of the local S3 server). The user's deletion stands (200,
 * gone from their list), the path is logged, and the sweep removes the files later.
 */
let s3: LocalS3;
let proxy: Server;
let failDeletes = false;

/** Forwards everything to the S3 server, but a batch delete (POST ?delete) answers 500 while failDeletes is on. */
function startProxy(target: string): Promise<string> {
  const to = new URL(target);
  proxy = createServer((req, res) => {
    if (failDeletes && req.method === 'POST' && /[?&]delete(=|&|$)/.test(req.url ?? '')) {
      req.resume();
      res.writeHead(500, { 'content-type': 'application/xml' });
      res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>We encountered an internal error.</Message></Error>');
      return;
    }
    const out = httpRequest({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  return new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`)));
}

let storage: S3Storage;

const libraryDir = mkdtempSync(join(tmpdir(), 'bt-library-s3fail-'));
const t = useTestApp(async () => {
  s3 = await startLocalS3();
  const settings = await s3.bucket();
  const endpoint = await startProxy(s3.endpoint);
  storage = new S3Storage(s3Client({ ...settings, endpoint }), settings.bucket, 'files');
  await copySeededLibrary(libraryDir, 'basic');
  return { storages: { storage, library: new LocalStorage(libraryDir) } };
}, {
  started: async (app) => {
    await app.app.services.datasets.reindex();
  },
  stopped: async () => {
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
    await s3.close();
    rmSync(libraryDir, { recursive: true, force: true });
  },
});

let days = 0;
/** Later than any retry already scheduled (each call a further two days on). */
const later = () => new Date(Date.now() + (days += 2) * 24 * 3600_000);
const sweepDeps = () => ({ db: t.db, storage, log: (m: string) => t.logs.push(m) });
const owed = (path: string) => t.db.models.StorageRemoval.findAll({ where: { path } });

describe('a deletion whose files the storage refuses to remove', () => {
  before(() => {
    failDeletes = false;
  });
  after(() => {
    failDeletes = false;
  });

  it('a result: deleted for the user (200, no longer listed), its folder logged, owed and removed by the sweep', async () => {
    const user = await funded(t, 10);
    const run = await runBacktest(t, user.key);
    assert.equal(run.status, 200, run.text);
    const folder = run.body.folder as string;
    const path = `results/${user.id}/${folder}`;
    assert.ok((await storage.list(path)).length > 0, 'the workbook is stored');

    failDeletes = true;
    const deleted = await t.request('DELETE', `/api/user/backtests/delete/${encodeURIComponent(folder)}`, { key: user.key });
    assert.equal(deleted.status, 200, deleted.text);
    assert.equal(deleted.body.message, 'Backtest supprimé.');
    const listed = await t.request('GET', '/api/user/backtests', { key: user.key });
    assert.equal(listed.status, 200);
    assert.ok(!JSON.stringify(listed.body).includes(folder), 'no longer listed');
    assert.ok(t.logs.some((l) => l.includes(`files left at ${path}`)), 'the path is logged');
    assert.equal((await owed(path)).length, 1, 'the removal is owed');
    assert.ok((await storage.list(path)).length > 0, 'the files are still there');

    // Still failing: the line stays, its attempts counted, rescheduled later.
    assert.deepEqual(await retryRemovals(sweepDeps(), { now: later() }), { removed: 0, failed: 1 });
    const [line] = await owed(path);
    assert.equal(line.attempts, 2);
    assert.ok(line.lastError);

    failDeletes = false;
    assert.deepEqual(await retryRemovals(sweepDeps(), { now: new Date() }), { removed: 0, failed: 0 }, 'not due yet');
    assert.deepEqual(await retryRemovals(sweepDeps(), { now: later() }), { removed: 1, failed: 0 });
    assert.deepEqual(await storage.list(path), []);
    assert.equal((await owed(path)).length, 0);
  });

  it('a result whose folder name a new run took meanwhile: the sweep leaves the new run its folder', async () => {
    const user = await funded(t, 10);
    const first = await runBacktest(t, user.key);
    assert.equal(first.status, 200, first.text);
    const folder = first.body.folder as string;
    failDeletes = true;
    assert.equal((await t.request('DELETE', `/api/user/backtests/delete/${encodeURIComponent(folder)}`, { key: user.key })).status, 200);
    failDeletes = false;
    const second = await runBacktest(t, user.key);
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.folder, folder, 'the freed name is used again');
    const path = `results/${user.id}/${folder}`;
    const files = await storage.list(path);
    await retryRemovals(sweepDeps(), { now: later() });
    assert.deepEqual(await storage.list(path), files, 'the new run keeps its files');
    assert.equal((await owed(path)).length, 0, 'the line is dropped');
    const sheets = await t.request('GET', `/api/user/backtests/xlsx/meta?folder=${encodeURIComponent(folder)}`, { key: user.key });
    assert.equal(sheets.status, 200, sheets.text);
  });

  it('a personal strategy: deleted (200, no longer listed), its file owed and removed by the sweep', async () => {
    const user = await funded(t, 0);
    const imported = await importStrategy(t, user.key, BREAKOUT_PY);
    assert.equal(imported.status, 201, imported.text);
    const id = imported.body.strategy?.id ?? imported.body.id;
    const row = await t.db.models.UserStrategy.findByPk(id);
    assert.ok(row, imported.text);
    failDeletes = true;
    const deleted = await t.request('DELETE', `/api/user/strategies/${id}`, { key: user.key });
    assert.equal(deleted.status, 200, deleted.text);
    assert.equal(deleted.body.message, 'Stratégie supprimée.');
    const listed = await t.request('GET', '/api/user/strategies', { key: user.key });
    assert.ok(!JSON.stringify(listed.body).includes(id), 'no longer listed');
    assert.ok(t.logs.some((l) => l.includes(`files left at ${row.path}`)));
    assert.ok(await storage.exists(row.path));
    failDeletes = false;
    await retryRemovals(sweepDeps(), { now: later() });
    assert.equal(await storage.exists(row.path), false);
    assert.equal((await owed(row.path)).length, 0);
  });

  it('a stale run: cancelled and refunded once, logged as such, its folder left to the removals sweep', async () => {
    const user = await funded(t, 4);
    const runId = randomUUID();
    const { run } = await chargeRun(t.db, t.app.services.ledger, {
      runId, userId: user.id, base: `EURUSD_M15_stale_${runId.slice(0, 8)}`, source: 'official', official: true, strategy: 'fvg_pullback_multi', strategyLabel: 'x', userStrategyId: null,
      symbol: 'EURUSD', timeframe: 'M15', startDate: '2023-01-01', endDate: '2023-01-31', slMode: 'external', slPips: 10, tp1Pips: 10, tp2Pips: 20, params: '{}', createdAt: t.clock.now(),
    }, { folder: 'x', symbol: 'EURUSD', timeframe: 'M15', strategy: 'fvg_pullback_multi' });
    const path = `results/${user.id}/${run.folder}`;
    await storage.write(`${path}/partial.xlsx`, 'partial');
    assert.equal(await balance(t, user.id), 2);
    failDeletes = true;
    t.clock.advance(3600_000);
    const logged = t.logs.length;
    assert.equal(await t.app.services.backtests.sweepStale(60_000), 1);
    const lines = t.logs.slice(logged).join('\n');
    assert.match(lines, new RegExp(`run ${run.runId}: left running .*: cancelled and refunded`));
    assert.doesNotMatch(lines, /could not be cancelled/);
    assert.match(lines, new RegExp(`files left at ${path}`));
    assert.equal(await balance(t, user.id), 4, 'refunded');
    assert.equal(await t.app.services.backtests.sweepStale(60_000), 0, 'once');
    assert.equal(await balance(t, user.id), 4);
    failDeletes = false;
    await retryRemovals(sweepDeps(), { now: later() });
    assert.deepEqual(await storage.list(path), []);
  });
});
