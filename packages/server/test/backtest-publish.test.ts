// A finished run's files reach its folder only while the run owns it (docs/queue.md, "A late
// worker's workbook"): staged while the row turns done, then published under a lock on the run
// (its row FOR UPDATE on MySQL, SQLite's write lock), so that a deletion of the run waits for the
// publication and then removes the folder, and a deletion that came first leaves nothing to
// publish into. Here the deletion is sent while the storage is in the middle of publishing.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { chargeRun } from '../src/backtests/charge.js';
import { cancelRun, finishRun, RunNotRunning } from '../src/backtests/finish.js';
import { EventLog } from '../src/events/log.js';
import { Results } from '../src/results/service.js';
import { LocalStorage, type StagedFile, type Storage } from '../src/storage/index.js';
import { useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { FINISHED_RESULT, runStart } from './support/run-start.js';
import { funded } from './support/work.js';

const t = useTestApp();

const start = (userId: number, base: string) => runStart(t, userId, base);
const result = FINISHED_RESULT;

/** The local storage, calling `during` in the middle of each publication (before the rename). */
function storageWith(during: (path: string) => Promise<void>): { storage: Storage; published: string[] } {
  const local = new LocalStorage(t.storageDir);
  const published: string[] = [];
  const storage = new Proxy(local, {
    get(target, prop) {
      if (prop === 'publish') {
        return async (staged: StagedFile, path: string) => {
          await during(path);
          await target.publish(staged, path);
          published.push(path);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as Storage;
  return { storage, published };
}

const staging = () => (existsSync(join(t.storageDir, '.staging')) ? readdirSync(join(t.storageDir, '.staging')) : []);

describe(`a run's files published only while it owns its folder (${TEST_DIALECT})`, () => {
  it('a deletion sent while the workbook is published waits for it, then removes the folder: no file left', async () => {
    const user = await funded(t, 10);
    const { run } = await chargeRun(t.db, t.app.services.ledger, start(user.id, `EURUSD_M15_pub_${randomUUID().slice(0, 8)}`), {});
    let deletion: Promise<void> | null = null;
    let deletedDuring = false;
    const { storage, published } = storageWith(async () => {
      const stored = (await t.db.models.BacktestRun.findByPk(run.id))!;
      deletion = new Results(t.db, storage).remove(stored);
      // Given time, a deletion not held by the publication's lock would commit now.
      await new Promise((r) => setTimeout(r, 300));
      deletedDuring = (await Promise.race([deletion.then(() => true), new Promise((r) => setTimeout(() => r(false), 0))])) as boolean;
    });
    await finishRun({ db: t.db, storage, events: new EventLog(t.db, t.clock), clock: t.clock }, run, result, new Uint8Array([1, 2, 3]), null, 5);
    assert.equal(deletedDuring, false, 'the deletion waited for the publication');
    assert.equal(published.length, 1);
    await deletion;
    assert.equal(await t.db.models.BacktestRun.count({ where: { id: run.id } }), 0);
    assert.equal(existsSync(join(t.storageDir, `results/${user.id}/${run.folder}`)), false, 'no file of the deleted run');
    assert.deepEqual(staging(), []);
  });

  it('a run deleted after it was marked done and before its files were published: nothing published, nothing staged', async () => {
    const user = await funded(t, 10);
    const { run } = await chargeRun(t.db, t.app.services.ledger, start(user.id, `EURUSD_M15_del_${randomUUID().slice(0, 8)}`), {});
    const local = new LocalStorage(t.storageDir);
    // The deletion lands while the files are being staged, after the row turned done.
    const storage = new Proxy(local, {
      get(target, prop) {
        if (prop === 'stage') {
          return async (data: Uint8Array) => {
            const staged = await target.stage(data);
            const deadline = Date.now() + 10_000;
            let stored = await t.db.models.BacktestRun.findByPk(run.id);
            while (stored?.status !== 'done' && Date.now() < deadline) {
              await new Promise((r) => setTimeout(r, 5));
              stored = await t.db.models.BacktestRun.findByPk(run.id);
            }
            await new Results(t.db, target).remove(stored!);
            return staged;
          };
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as Storage;
    await finishRun({ db: t.db, storage, events: new EventLog(t.db, t.clock), clock: t.clock }, run, result, new Uint8Array([4, 5]), null, 5);
    assert.equal(existsSync(join(t.storageDir, `results/${user.id}/${run.folder}`)), false);
    assert.deepEqual(staging(), []);
  });

  it('a run given up before it finishes: RunNotRunning, and nothing reaches its folder or stays in staging', async () => {
    const user = await funded(t, 10);
    const { run } = await chargeRun(t.db, t.app.services.ledger, start(user.id, `EURUSD_M15_gone_${randomUUID().slice(0, 8)}`), {});
    const local = new LocalStorage(t.storageDir);
    assert.equal(await cancelRun({ db: t.db, ledger: t.app.services.ledger, storage: local, log: () => {} }, run), 'cancelled');
    await assert.rejects(finishRun({ db: t.db, storage: local, events: new EventLog(t.db, t.clock), clock: t.clock }, run, result, new Uint8Array([6]), null, 5), RunNotRunning);
    assert.equal(existsSync(join(t.storageDir, `results/${user.id}/${run.folder}`)), false);
    assert.deepEqual(staging(), []);
  });
});
