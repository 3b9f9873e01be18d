import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { Op } from 'sequelize';
import { randomUUID } from 'node:crypto';
import { chargeRun } from '../src/backtests/charge.js';
import { LocalStorage } from '../src/storage/local.js';
import { retryRemovals } from '../src/storage/removals.js';
import { SETTLED_NOW } from '../src/users/purge.js';
import type { Storage } from '../src/storage/types.js';
import { useTestApp, type TestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { copySeededLibrary } from './support/library.js';
import { waitFor } from './support/redis.js';
import { BREAKOUT_PY, funded, importStrategy, makeAdmin, runBacktest } from './support/work.js';

/**
 * What an account's deletion leaves behind (docs/server.md "Deleting an account"): its personal
 * strategies, archive entries, CSVs and results go, rows and files, whoever deletes it (the owner,
 * an admin); only the documented records stay. A storage that refuses the removals leaves them
 * owed to the sweep, never a half-deleted account.
 */
const storageDir = mkdtempSync(join(tmpdir(), 'bt-deletion-files-'));
let failRemovals = false;
const local = new LocalStorage(storageDir);
/** The local storage, whose removals fail (a disk error) while failRemovals is on. */
const flaky = new Proxy(local, {
  get(target, prop) {
    if (prop === 'remove') {
      return async (path: string) => {
        if (failRemovals) throw new Error('EIO: i/o error');
        return target.remove(path);
      };
    }
    const value = Reflect.get(target, prop, target);
    return typeof value === 'function' ? value.bind(target) : value;
  },
}) as Storage;

const libraryDir = mkdtempSync(join(tmpdir(), 'bt-deletion-library-'));
const t = useTestApp(async () => {
  await copySeededLibrary(libraryDir, 'basic');
  return { storages: { storage: flaky, library: new LocalStorage(libraryDir) } };
}, {
  started: async (app) => {
    await app.app.services.datasets.reindex();
  },
  stopped: async () => {
    for (const dir of [storageDir, libraryDir]) rmSync(dir, { recursive: true, force: true });
  },
});

/** Tables the deletion keeps rows of, on purpose (docs/server.md "Deleting an account"). */
const KEPT = ['credit_ledger', 'events', 'invoices', 'payments', 'support_messages'];

/** Every table with a `user_id` column and how many of its rows name the user (found, not listed: a new table is checked too). */
async function rowsNaming(t: TestApp, userId: number): Promise<Record<string, number>> {
  const qi = t.db.sequelize.getQueryInterface();
  const tables = (await qi.showAllTables()).map((name) => (typeof name === 'string' ? name : (name as { tableName: string }).tableName));
  const counts: Record<string, number> = {};
  for (const table of tables.sort()) {
    if (!('user_id' in (await qi.describeTable(table)))) continue;
    const [rows] = await t.db.sequelize.query(`SELECT COUNT(*) AS n FROM ${table} WHERE user_id = ?`, { replacements: [userId] });
    const n = Number((rows as { n: number | string }[])[0].n);
    if (n > 0) counts[table] = n;
  }
  return counts;
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push(relative(storageDir, full).split('\\').join('/'));
    }
  };
  walk(dir);
  return out;
}

/** A user with something of each kind: a strategy, a failed import, a result, an extraction, a bought month. */
async function busyUser(t: TestApp) {
  const user = await funded(t, 20);
  assert.equal((await importStrategy(t, user.key, BREAKOUT_PY, 'cassure.py')).status, 201);
  assert.equal((await importStrategy(t, user.key, 'import os\ndef detect_x(candles, params):\n    return []\n', 'refus.py')).status, 400);
  const run = await runBacktest(t, user.key);
  assert.equal(run.status, 200, run.text);
  const extraction = await t.request('GET', '/api/extract_to_output_live?symbol=EU50&timeframe=M5&start_date=2006-01-02&end_date=2006-01-06', { key: user.key });
  assert.equal(extraction.status, 200, extraction.text);
  const bought = await t.request('GET', '/api/download_csv_by_path/EURUSD/H1/EURUSD_H1_2023-01.csv', { key: user.key });
  assert.equal(bought.status, 200, bought.text);
  const archived = await t.db.models.ArchivedStrategy.findAll({ where: { userId: user.id } });
  assert.equal(archived.length, 2);
  const files = [...archived.map((a) => a.path!), ...filesUnder(storageDir).filter((f) => new RegExp(`^(strategies|results|extractions)/${user.id}/`).test(f))];
  assert.ok(files.some((f) => f.startsWith(`results/${user.id}/`)) && files.some((f) => f.startsWith(`extractions/${user.id}/`)) && files.some((f) => f.startsWith(`strategies/${user.id}/`)), files.join('\n'));
  const before = await rowsNaming(t, user.id);
  for (const table of ['backtest_runs', 'user_csvs', 'user_strategies', 'strategy_archive', 'api_keys']) assert.ok(before[table] > 0, `${table}: ${JSON.stringify(before)}`);
  return { user, files };
}

function assertNothingLeft(counts: Record<string, number>, files: string[]) {
  const left = Object.keys(counts).filter((table) => !KEPT.includes(table));
  assert.deepEqual(left, [], `rows left: ${JSON.stringify(counts)}`);
  const present = new Set(filesUnder(storageDir));
  assert.deepEqual(files.filter((f) => present.has(f)), [], 'no file of the account is left');
}

describe(`an account's deletion leaves nothing of it behind (${TEST_DIALECT})`, () => {
  it('by its owner: strategies, archive entries, CSVs, results and their files go; the ledger stays', async () => {
    const { user, files } = await busyUser(t);
    const res = await t.request('POST', '/api/user/delete_account', { key: user.key, json: { current_password: user.password } });
    assert.equal(res.status, 200, res.text);
    const counts = await rowsNaming(t, user.id);
    assertNothingLeft(counts, files);
    assert.ok(counts.credit_ledger > 0, 'the ledger is the accounting record');
    assert.equal(await t.db.models.StorageRemoval.count(), 0, 'every removal settled');
    assert.ok(await t.db.models.User.findByPk(user.id), 'the archived row stays');
  });

  it('by an admin: the same path', async () => {
    const { user, files } = await busyUser(t);
    const admin = await makeAdmin(t);
    const res = await t.request('POST', '/api/admin/delete_user', { key: admin.key, json: { user_id: user.id } });
    assert.equal(res.status, 200, res.text);
    assertNothingLeft(await rowsNaming(t, user.id), files);
  });

  it('a run still running is refunded once, its row and folder gone', async () => {
    const user = await funded(t, 3);
    const runId = randomUUID();
    const { run } = await chargeRun(t.db, t.app.services.ledger, {
      runId, userId: user.id, base: `EURUSD_M15_live_${runId.slice(0, 8)}`, source: 'official', official: true, strategy: 'fvg_pullback_multi', strategyLabel: 'x', userStrategyId: null,
      symbol: 'EURUSD', timeframe: 'M15', startDate: '2023-01-01', endDate: '2023-01-31', slMode: 'external', slPips: 10, tp1Pips: 10, tp2Pips: 20, params: '{}', createdAt: t.clock.now(),
    }, { folder: 'x', symbol: 'EURUSD', timeframe: 'M15', strategy: 'fvg_pullback_multi' });
    const partial = `results/${user.id}/${run.folder}/partial.xlsx`;
    await flaky.write(partial, 'partial');
    assert.equal((await t.request('POST', '/api/user/delete_account', { key: user.key, json: { current_password: user.password } })).status, 200);
    const entries = await t.db.models.CreditEntry.findAll({ where: { userId: user.id, reference: runId }, order: [['id', 'ASC']] });
    assert.deepEqual(entries.map((e) => e.kind), ['spend', 'refund']);
    assert.equal(entries[1].amount, -entries[0].amount);
    const row = await t.db.models.User.findByPk(user.id);
    assert.equal(row?.credits, 3, 'the archived balance is whole again');
    // The thread that ran it gives it up later: its own refund finds the one made.
    await t.app.services.ledger.refund(user.id, runId);
    assert.equal(await t.db.models.CreditEntry.count({ where: { userId: user.id, reference: runId, kind: 'refund' } }), 1);
    assertNothingLeft(await rowsNaming(t, user.id), [partial]);
  });

  it('an import that passed its sign-in before the deletion writes nothing after it: 401, no row, no file', async () => {
    const user = await funded(t, 0);
    // The row its request read at sign-in, then the deletion commits while the file is checked.
    const signedIn = (await t.db.models.User.findByPk(user.id))!;
    assert.equal((await t.request('POST', '/api/user/delete_account', { key: user.key, json: { current_password: user.password } })).status, 200);
    const strategies = t.app.services.strategies;
    const good = strategies.import(signedIn, { filename: 'tard.py', bytes: new TextEncoder().encode(BREAKOUT_PY), slMode: 'external', commentUser: '' });
    await assert.rejects(good, (err: { status?: number; message?: string }) => err.status === 401 && err.message === 'Clé API invalide ou expirée.');
    const bad = strategies.import(signedIn, { filename: 'refus.py', bytes: new TextEncoder().encode('import os\n'), slMode: 'external', commentUser: '' });
    await assert.rejects(bad, (err: { status?: number }) => err.status === 401);
    assert.deepEqual(Object.keys(await rowsNaming(t, user.id)).filter((table) => !KEPT.includes(table)), []);
    assert.deepEqual(filesUnder(storageDir).filter((f) => f.startsWith(`strategies/${user.id}/`)), []);
    assert.equal(filesUnder(storageDir).filter((f) => f.startsWith('archive/')).length, await t.db.models.ArchivedStrategy.count({ where: { path: { [Op.ne]: null } } }), 'no archive file without its entry');
  });

  it('the files of an import refused after the deletion, on a storage refusing removals, are owed to the sweep', async () => {
    const user = await funded(t, 0);
    const signedIn = (await t.db.models.User.findByPk(user.id))!;
    assert.equal((await t.request('POST', '/api/user/delete_account', { key: user.key, json: { current_password: user.password } })).status, 200);
    const owedBefore = await t.db.models.StorageRemoval.count();
    failRemovals = true;
    try {
      const late = t.app.services.strategies.import(signedIn, { filename: 'tard.py', bytes: new TextEncoder().encode(BREAKOUT_PY), slMode: 'external', commentUser: '' });
      await assert.rejects(late, (err: { status?: number }) => err.status === 401);
    } finally {
      failRemovals = false;
    }
    const orphans = async () => {
      const named = new Set((await t.db.models.ArchivedStrategy.findAll({ attributes: ['path'] })).map((a) => a.path));
      return filesUnder(storageDir).filter((f) => f.startsWith(`strategies/${user.id}/`) || (f.startsWith('archive/') && !named.has(f)));
    };
    assert.equal((await orphans()).length, 2, 'the storage kept the .py and the archive copy');
    assert.equal(await t.db.models.StorageRemoval.count(), owedBefore + 2, 'the .py and the archive folder are owed');
    await retryRemovals({ db: t.db, storage: flaky, log: (m) => t.logs.push(m) }, { now: new Date(Date.now() + 2 * 24 * 3600_000) });
    assert.deepEqual(await orphans(), [], 'the sweep removed them');
  });

  it('an extraction cut for an account deleted meanwhile, on a storage refusing removals: 401, its file owed to the sweep', async () => {
    const user = await funded(t, 5);
    const signedIn = (await t.db.models.User.findByPk(user.id))!;
    assert.equal((await t.request('POST', '/api/user/delete_account', { key: user.key, json: { current_password: user.password } })).status, 200);
    const owedBefore = await t.db.models.StorageRemoval.count();
    failRemovals = true;
    try {
      const late = t.app.services.csvShop.extract(signedIn, { symbol: 'EU50', timeframe: 'M5', startDate: '2006-01-02', endDate: '2006-01-06' });
      await assert.rejects(late, (err: Error) => err.name === 'AccountGoneError', 'the refusal is answered (401), not the storage error (500)');
    } finally {
      failRemovals = false;
    }
    assert.equal(filesUnder(storageDir).filter((f) => f.startsWith(`extractions/${user.id}/`)).length, 1, 'the storage kept the file');
    assert.equal(await t.db.models.StorageRemoval.count(), owedBefore + 1, 'its removal is owed');
    await retryRemovals({ db: t.db, storage: flaky, log: (m) => t.logs.push(m) }, { now: new Date(Date.now() + 2 * 24 * 3600_000) });
    assert.deepEqual(filesUnder(storageDir).filter((f) => f.startsWith(`extractions/${user.id}/`)), []);
  });

  it('an account with more archive folders than a request removes: the rest is left to the sweep', async () => {
    const user = await funded(t, 0);
    const paths: string[] = [];
    for (let i = 0; i < SETTLED_NOW + 10; i++) {
      const path = `archive/import/20260115/${1_700_000_000_000 + i}-${(0xa0000000 + user.id * 100 + i).toString(16)}/s.py`;
      await flaky.write(path, 'x');
      await t.db.models.ArchivedStrategy.create({ type: 'import', strategyId: null, userId: user.id, displayName: 's', slMode: null, status: 'failed', path, meta: '{}', note: null, createdAt: t.clock.now() });
      paths.push(path);
    }
    const res = await t.request('POST', '/api/user/delete_account', { key: user.key, json: { current_password: user.password } });
    assert.equal(res.status, 200, res.text);
    const owed = await t.db.models.StorageRemoval.count();
    // The account's three own folders and the entries' 60: 50 removed now.
    assert.equal(owed, SETTLED_NOW + 10 + 3 - SETTLED_NOW);
    assert.ok(t.logs.some((l) => l.includes(`account ${user.id} deleted: ${owed} more folders left to the removals sweep`)));
    await retryRemovals({ db: t.db, storage: flaky, log: (m) => t.logs.push(m) }, { now: new Date(Date.now() + 2 * 24 * 3600_000) });
    assertNothingLeft(await rowsNaming(t, user.id), paths);
    assert.equal(await t.db.models.StorageRemoval.count(), 0);
  });

  it('the sweep finds deleted accounts by an index on deleted_at, not by reading every user', async () => {
    const indexes = (await t.db.sequelize.getQueryInterface().showIndex('users')) as { name: string; fields: { attribute: string }[] }[];
    assert.deepEqual(indexes.find((i) => i.name === 'users_deleted_at')?.fields.map((f) => f.attribute), ['deleted_at']);
  });

  it('an account deleted before the purge existed: the sweep purges what it left, once', async () => {
    const { user, files } = await busyUser(t);
    // What a deletion did before: the row archived, the keys gone, everything else left.
    await t.db.models.User.update({ deletedEmail: user.email, email: null, username: null, passwordHash: null, deletedAt: t.clock.now() }, { where: { id: user.id } });
    for (const model of [t.db.models.ApiKey, t.db.models.UserToken, t.db.models.UserIdentity]) await (model as typeof t.db.models.ApiKey).destroy({ where: { userId: user.id } });
    assert.ok((await rowsNaming(t, user.id)).user_strategies > 0);
    const purge = t.app.services.purge;
    const [first, second] = await Promise.all([purge.sweepDeleted(), purge.sweepDeleted()]);
    assert.equal(first + second, 1, 'purged once, whichever sweep did it');
    assertNothingLeft(await rowsNaming(t, user.id), files);
    assert.equal(await purge.sweepDeleted(), 0, 'nothing left to purge');
    assert.ok(t.logs.some((l) => l.includes(`account ${user.id}: deleted, its strategies, archive entries, CSVs and results purged by the sweep`)));

    // The minute sweep (main.ts starts it) runs it.
    const other = await busyUser(t);
    await t.db.models.User.update({ deletedAt: t.clock.now() }, { where: { id: other.user.id } });
    t.app.services.backtests.startSweeper(100, 3600_000);
    await waitFor(async () => (await rowsNaming(t, other.user.id)).user_strategies === undefined, 'the sweep purged the account', 10_000);
    await waitFor(async () => (await t.db.models.StorageRemoval.count()) === 0, 'its removals settled', 10_000);
    assertNothingLeft(await rowsNaming(t, other.user.id), other.files);
  });

  it('a storage refusing the removals: the deletion stands, the files are owed and the sweep removes them', async () => {
    const { user, files } = await busyUser(t);
    failRemovals = true;
    try {
      const res = await t.request('POST', '/api/user/delete_account', { key: user.key, json: { current_password: user.password } });
      assert.equal(res.status, 200, res.text);
    } finally {
      failRemovals = false;
    }
    assert.deepEqual(Object.keys(await rowsNaming(t, user.id)).filter((table) => !KEPT.includes(table)), [], 'the rows are gone at once');
    const present = new Set(filesUnder(storageDir));
    assert.ok(files.every((f) => present.has(f)), 'the files are still there');
    assert.ok(t.logs.some((l) => l.includes(`account ${user.id} deleted: files left at strategies/${user.id}`)), 'the path is logged');
    const owed = await t.db.models.StorageRemoval.count();
    assert.ok(owed >= 5, `owed: ${owed}`);
    const swept = await retryRemovals({ db: t.db, storage: flaky, log: (m) => t.logs.push(m) }, { now: new Date(Date.now() + 2 * 24 * 3600_000) });
    assert.deepEqual(swept, { removed: owed, failed: 0 });
    assertNothingLeft(await rowsNaming(t, user.id), files);
  });
});
