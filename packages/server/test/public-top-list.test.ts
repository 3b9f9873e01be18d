// The public top list is read once per TOP_CACHE_SECONDS, not on every home page visit
// (docs/server.md "Public top strategies"): what this process changes shows at once, what another
// process changes within the delay, and a result deleted meanwhile never serves its workbook.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ListingCache } from '../src/public/listing-cache.js';
import { ManualClock } from '../src/clock/index.js';
import { startTestApp, type TestApp } from './support/app.js';
import { SQLITE_PASS_ONLY, TEST_DIALECT, openTestDatabase, type TestDatabase } from './support/db.js';
import { funded, runBacktest } from './support/work.js';

describe('ListingCache', { skip: SQLITE_PASS_ONLY }, () => {
  it('keeps a value for its delay, shares a read in flight, forgets on demand and never keeps a failure', async () => {
    const clock = new ManualClock(0);
    const cache = new ListingCache<number>(10_000, clock);
    let reads = 0;
    const load = async () => ++reads;
    const [a, b] = await Promise.all([cache.get(load), cache.get(load)]);
    assert.deepEqual([a, b, reads], [1, 1, 1], 'two visits during one read share it');
    clock.advance(9_999);
    assert.equal(await cache.get(load), 1);
    clock.advance(1);
    assert.equal(await cache.get(load), 2, 'read again once the delay has passed');
    cache.forget();
    assert.equal(await cache.get(load), 3);
    cache.forget();
    const failing = cache.get(async () => {
      throw new Error('database away');
    });
    await assert.rejects(failing, /database away/);
    assert.equal(await cache.get(load), 4, 'a failed read is read again at the next visit');
    const uncached = new ListingCache<number>(0, clock);
    await uncached.get(load);
    assert.equal(await uncached.get(load), 6, 'a delay of 0 reads every time');
  });
});

describe(`public top list between reads (${TEST_DIALECT})`, () => {
  let tdb: TestDatabase;
  let t: TestApp;
  let trader: Awaited<ReturnType<typeof funded>>;
  const folders = async () => (await t.request('GET', '/api/top-strategy')).body.map((item: { folder: string }) => item.folder) as string[];

  before(async () => {
    tdb = await openTestDatabase();
    t = await startTestApp(tdb.db, { library: true, config: { topMinTrades: 10, topCacheMs: 10_000 } });
    trader = await funded(t, 20);
  });
  after(async () => {
    await t.close();
    await tdb.drop();
  });

  it('a run this process finishes or deletes shows at once; one another process writes, once the delay has passed', async () => {
    assert.deepEqual(await folders(), []);
    const first = await runBacktest(t, trader.key, { strategy: 'fvg_impulsive' });
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(await folders(), [first.body.folder], 'an official run finished here enters the list at once');

    // Another API process (or a bt-worker) finishing a run: the row is written, this process is not told.
    const { BacktestRun } = t.db.models;
    const { id: _id, ...mine } = (await BacktestRun.findOne({ where: { folder: first.body.folder }, raw: true }))!;
    const elsewhere = `${first.body.folder.replace('fvg_impulsive', 'englobante_entry')}`;
    const other = await BacktestRun.create({ ...mine, runId: 'run-of-another-process', strategy: 'englobante_entry', folder: elsewhere, winrateTp1: 0.99 });
    assert.deepEqual(await folders(), [first.body.folder], 'kept for the delay');
    t.clock.advance(10_000);
    assert.deepEqual(await folders(), [elsewhere, first.body.folder], 'read again after it');

    // Deleted by another process: still listed until the delay passes, but nothing is served for it.
    await BacktestRun.destroy({ where: { id: other.id } });
    assert.deepEqual(await folders(), [elsewhere, first.body.folder]);
    const meta = await t.request('GET', `/api/public/xlsx/meta?folder=${elsewhere}`);
    assert.deepEqual([meta.status, meta.body.detail], [404, 'Dossier inconnu']);
    const sheet = await t.request('GET', `/api/public/xlsx/sheet?folder=${elsewhere}&sheet=Global`);
    assert.deepEqual([sheet.status, sheet.body.detail], [404, 'Dossier inconnu']);
    assert.equal((await t.request('GET', `/api/public/xlsx/meta?folder=${first.body.folder}`)).status, 200);
    t.clock.advance(10_000);
    assert.deepEqual(await folders(), [first.body.folder]);

    // Deleted by its owner here: gone from the list at once.
    const deleted = await t.request('DELETE', `/api/user/backtests/delete/${first.body.folder}`, { key: trader.key });
    assert.equal(deleted.status, 200);
    assert.deepEqual(await folders(), []);
  });
});
