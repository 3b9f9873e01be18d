// A run given up (or a result deleted) frees its folder's name at once, and the user's next run of
// the same settings takes it; the old folder's removal comes after the row's, outside its
// transaction. A rerun that published into the folder in between lost its files to that removal.
// Both now take one lock, the owed removal's line (docs/queue.md, "A folder freed and taken
// again"): the publication removes an owed folder itself before publishing, and a removal finds
// its line gone. The window is opened by a hook, not a timed race: the rerun runs whole at the
// first step that follows the row's removal (the storage's removal, or a new transaction).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { chargeRun } from '../src/backtests/charge.js';
import { cancelRun, finishRun } from '../src/backtests/finish.js';
import type { Database } from '../src/db/database.js';
import { EventLog } from '../src/events/log.js';
import { Results } from '../src/results/service.js';
import { LocalStorage, type Storage } from '../src/storage/index.js';
import { retryRemovals } from '../src/storage/removals.js';
import { S3Storage, s3Client } from '../src/storage/s3.js';
import { useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { startLocalS3, type LocalS3 } from './support/s3.js';
import { FINISHED_RESULT, runStart } from './support/run-start.js';
import { funded } from './support/work.js';

const t = useTestApp();
let s3: LocalS3;
let bucket: Storage;

before(async () => {
  s3 = await startLocalS3();
  const settings = await s3.bucket();
  bucket = new S3Storage(s3Client(settings), settings.bucket, `reuse-${randomUUID().slice(0, 8)}`);
});
after(async () => {
  await s3?.close();
});

const start = (userId: number, base: string) => runStart(t, userId, base);
const result = FINISHED_RESULT;

/**
 * The database and storage a removal is given, with `hook` run once, at whichever comes first
 * once `skip` transactions have ended (the row's removal): a transaction begun, or a removal from
 * the storage. The rerun and the checks use the unwrapped ones.
 */
function hooked(db: Database, storage: Storage, skip: number, hook: () => Promise<void>) {
  let ended = 0;
  let fired = false;
  const fire = async () => {
    if (fired || ended < skip) return;
    fired = true;
    await hook();
  };
  const wrapped = new Proxy(db, {
    get(obj, prop) {
      if (prop === 'transaction') {
        return async <T>(fn: (tx: never) => Promise<T>) => {
          await fire();
          try {
            return await obj.transaction(fn as never);
          } finally {
            ended++;
          }
        };
      }
      const value = Reflect.get(obj, prop, obj);
      return typeof value === 'function' ? value.bind(obj) : value;
    },
  });
  const removing = new Proxy(storage, {
    get(obj, prop) {
      if (prop === 'remove') {
        return async (path: string) => {
          await fire();
          return obj.remove(path);
        };
      }
      const value = Reflect.get(obj, prop, obj);
      return typeof value === 'function' ? value.bind(obj) : value;
    },
  });
  return { db: wrapped, storage: removing, fired: () => fired };
}

const storages: [string, () => Storage][] = [
  ['local disk', () => new LocalStorage(t.storageDir)],
  ['bucket (s3rver)', () => bucket],
];

for (const [where, storageOf] of storages) {
  describe(`a folder freed and taken again keeps the newer run's files (${TEST_DIALECT}, ${where})`, () => {
    /** A rerun of the user's settings, finished and published; its run's row and workbook. */
    const rerun = async (userId: number, base: string, storage: Storage, bytes: Uint8Array) => {
      const { run } = await chargeRun(t.db, t.app.services.ledger, start(userId, base), {});
      await finishRun({ db: t.db, storage, events: new EventLog(t.db, t.clock), clock: t.clock }, run, result, bytes, null, 5);
      return run;
    };
    const workbookOf = async (storage: Storage, userId: number, folder: string) => {
      const files = await storage.list(`results/${userId}/${folder}`);
      return files.length === 0 ? null : [...(await storage.read(`results/${userId}/${folder}/${files.find((f) => f.endsWith('.xlsx'))}`))];
    };

    it('a run given up, and a rerun published between its row removal and its folder removal', async () => {
      const storage = storageOf();
      const user = await funded(t, 10);
      const base = `EURUSD_M15_reuse_${randomUUID().slice(0, 8)}`;
      const { run: given } = await chargeRun(t.db, t.app.services.ledger, start(user.id, base), {});
      let newer = null as Awaited<ReturnType<typeof rerun>> | null;
      const h = hooked(t.db, storage, 1, async () => {
        newer = await rerun(user.id, base, storage, new Uint8Array([7, 7, 7]));
      });
      assert.equal(await cancelRun({ db: h.db, ledger: t.app.services.ledger, storage: h.storage, log: () => {} }, given), 'cancelled');
      assert.ok(newer, 'the rerun ran in the window');
      assert.equal(newer!.folder, given.folder, 'the rerun took the freed name');
      assert.deepEqual(await workbookOf(storage, user.id, given.folder), [7, 7, 7], "the rerun's workbook is still there");
      assert.equal(await t.db.models.StorageRemoval.count({ where: { path: `results/${user.id}/${given.folder}` } }), 0, 'no removal left owed');
    });

    it("a result deleted, and a rerun published before its folder's removal: the rerun's files stay, the old result's go", async () => {
      const storage = storageOf();
      const user = await funded(t, 10);
      const base = `EURUSD_M15_redo_${randomUUID().slice(0, 8)}`;
      const old = await rerun(user.id, base, storage, new Uint8Array([1]));
      // A file of the old result that the rerun does not write (an upload's chart candles, say).
      await storage.write(`results/${user.id}/${old.folder}/old-only.bin`, 'old');
      const h = hooked(t.db, storage, 1, async () => {
        await rerun(user.id, base, storage, new Uint8Array([2, 2]));
      });
      await new Results(h.db, h.storage).remove((await t.db.models.BacktestRun.findByPk(old.id))!);
      assert.ok(h.fired(), 'the rerun ran in the window');
      assert.deepEqual(await workbookOf(storage, user.id, old.folder), [2, 2], "the rerun's workbook is still there");
      assert.equal(await storage.exists(`results/${user.id}/${old.folder}/old-only.bin`), false, "the old result's own file went");
    });

    it('a removal under way holds a rerun\'s publication until it is done', async () => {
      const storage = storageOf();
      const user = await funded(t, 10);
      const base = `EURUSD_M15_wait_${randomUUID().slice(0, 8)}`;
      const { run: given } = await chargeRun(t.db, t.app.services.ledger, start(user.id, base), {});
      let rerunning: Promise<unknown> | null = null;
      let publishedDuring: unknown = null;
      // Inside the removal itself: the rerun is started, and given time to publish.
      const removing = new Proxy(storage, {
        get(obj, prop) {
          if (prop === 'remove') {
            return async (path: string) => {
              if (!rerunning) {
                rerunning = rerun(user.id, base, storage, new Uint8Array([5, 5]));
                await new Promise((r) => setTimeout(r, 300));
                publishedDuring = await workbookOf(storage, user.id, given.folder);
              }
              return obj.remove(path);
            };
          }
          const value = Reflect.get(obj, prop, obj);
          return typeof value === 'function' ? value.bind(obj) : value;
        },
      });
      assert.equal(await cancelRun({ db: t.db, ledger: t.app.services.ledger, storage: removing, log: () => {} }, given), 'cancelled');
      await rerunning;
      assert.equal(publishedDuring, null, 'nothing published while the removal ran');
      assert.deepEqual(await workbookOf(storage, user.id, given.folder), [5, 5], "the rerun's workbook, published after the removal");
    });

    it("the sweep's retry of an owed removal, and a rerun published meanwhile", async () => {
      const storage = storageOf();
      const user = await funded(t, 10);
      const base = `EURUSD_M15_sweep_${randomUUID().slice(0, 8)}`;
      const old = await rerun(user.id, base, storage, new Uint8Array([3]));
      const path = `results/${user.id}/${old.folder}`;
      // The deletion's removal refused by the storage: its line left to the sweep.
      const refusing = new Proxy(storage, {
        get(obj, prop) {
          if (prop === 'remove') return async () => Promise.reject(new Error('storage refused'));
          const value = Reflect.get(obj, prop, obj);
          return typeof value === 'function' ? value.bind(obj) : value;
        },
      });
      await new Results(t.db, refusing).remove((await t.db.models.BacktestRun.findByPk(old.id))!);
      assert.equal(await t.db.models.StorageRemoval.count({ where: { path } }), 1);
      // The only line due, so the sweep's first step is this removal's.
      assert.equal(await t.db.models.StorageRemoval.count(), 1);
      const h = hooked(t.db, storage, 0, async () => {
        await rerun(user.id, base, storage, new Uint8Array([4, 4]));
      });
      await retryRemovals({ db: h.db, storage: h.storage, log: () => {} }, { now: new Date(Date.now() + 3600_000) });
      assert.ok(h.fired(), 'the rerun ran in the window');
      assert.deepEqual(await workbookOf(storage, user.id, old.folder), [4, 4], "the rerun's workbook is still there");
      assert.equal(await t.db.models.StorageRemoval.count({ where: { path } }), 0, 'the line settled');
    });
  });
}
