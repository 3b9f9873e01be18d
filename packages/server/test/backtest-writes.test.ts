import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { chargeRun } from '../src/backtests/charge.js';
import { finishRun, RunNotRunning, cancelRun } from '../src/backtests/finish.js';
import { InsufficientCreditsError } from '../src/credits/ledger.js';
import { isUniqueViolation } from '../src/db/database.js';
import { EventLog, eventInsertSql } from '../src/events/log.js';
import type { EngineResult } from '../src/jobs/task.js';
import { LocalStorage } from '../src/storage/index.js';
import { useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { runStart } from './support/run-start.js';
import { funded } from './support/work.js';

const t = useTestApp();

const start = (userId: number, base: string) =>
  runStart(t, userId, base, {
    strategyLabel: "FVG l'étiquette « citée » \\ avec\0NUL",
    slMode: 'fixed',
    params: JSON.stringify({ note: 'a "quoted" \u0000 value' }),
  });

/** The figures finishRun reads of a result (a real run's are checked by test/backtests.test.ts). */
const result = {
  strategyLabel: 'FVG',
  from: 0,
  warnings: [],
  statistics: { global: { trades: 3, resolved: 2, tp1: { winrate: 0.5 }, tp2: { winrate: Number.NaN }, slRate: 0.5 }, sessions: [], byHour: [], byWeekday: [] },
} as unknown as EngineResult;

describe(`backtest writes in raw SQL (${TEST_DIALECT})`, () => {
  it('the charge: 2 credits and the ledger row under the run id, the folder suffixed when taken, every value stored as Sequelize reads it', async () => {
    const user = await funded(t, 5);
    const first = await chargeRun(t.db, t.app.services.ledger, start(user.id, 'EURUSD_M15_x'), { folder: 'EURUSD_M15_x' });
    const second = await chargeRun(t.db, t.app.services.ledger, start(user.id, 'EURUSD_M15_x'), { folder: 'EURUSD_M15_x' });
    assert.deepEqual([first.balance, second.balance], [3, 1]);
    assert.equal(first.run.folder, 'EURUSD_M15_x');
    assert.equal(second.run.folder, `EURUSD_M15_x_${second.run.runSeq}`);
    assert.equal(second.run.runSeq, first.run.runSeq + 1);
    const stored = await t.db.models.BacktestRun.findByPk(first.run.id);
    assert.ok(stored);
    assert.equal(stored.runId, first.run.runId);
    assert.equal(stored.strategyLabel, "FVG l'étiquette « citée » \\ avec\0NUL");
    assert.deepEqual(JSON.parse(stored.params!), { note: 'a "quoted" \u0000 value' });
    assert.equal(stored.official, true);
    assert.equal(stored.tp2Pips, null);
    assert.equal(stored.createdAt.getTime(), t.clock.now().getTime());
    const entry = await t.db.models.CreditEntry.findOne({ where: { kind: 'spend', reference: first.run.runId } });
    assert.deepEqual([entry?.userId, entry?.amount, entry?.balanceAfter, entry?.reason], [user.id, -2, 3, 'backtest']);
    assert.deepEqual(JSON.parse(entry!.meta!), { folder: 'EURUSD_M15_x' });
    await assert.rejects(chargeRun(t.db, t.app.services.ledger, start(user.id, 'EURUSD_M15_x'), {}), (err) => err instanceof InsufficientCreditsError && err.balance === 1);
    assert.equal(await t.db.models.BacktestRun.count({ where: { userId: user.id } }), 2, 'a refused charge leaves no run');
    assert.equal(await t.db.models.CreditEntry.count({ where: { userId: user.id, kind: 'spend' } }), 2);
  });

  it('a charge that fails after the spend (its run id already charged) is rolled back whole: the credits, the counter and the rows as before', async () => {
    const user = await funded(t, 10);
    const first = start(user.id, 'EURUSD_M15_twice');
    await chargeRun(t.db, t.app.services.ledger, first, {});
    const before = await t.db.models.User.findByPk(user.id);
    await assert.rejects(chargeRun(t.db, t.app.services.ledger, { ...first, base: 'EURUSD_M15_other' }, {}), (err) => isUniqueViolation(err));
    const after = await t.db.models.User.findByPk(user.id);
    assert.deepEqual([after?.credits, after?.runSeq], [before?.credits, before?.runSeq]);
    assert.equal(after?.credits, 8);
    assert.equal(await t.db.models.CreditEntry.count({ where: { userId: user.id, kind: 'spend' } }), 1);
    assert.equal(await t.db.models.BacktestRun.count({ where: { userId: user.id } }), 1);
  });

  it('a charge for an unknown or deleted account is refused with nothing written', async () => {
    const user = await funded(t, 10);
    await assert.rejects(chargeRun(t.db, t.app.services.ledger, start(999_999, 'EURUSD_M15_nobody'), {}), /unknown user/);
    await t.db.models.User.update({ deletedAt: t.clock.now() }, { where: { id: user.id } });
    await assert.rejects(chargeRun(t.db, t.app.services.ledger, start(user.id, 'EURUSD_M15_deleted'), {}), /unknown user/);
    assert.equal(await t.db.models.CreditEntry.count({ where: { userId: user.id, kind: 'spend' } }), 0);
    assert.equal(await t.db.models.BacktestRun.count({ where: { userId: user.id } }), 0);
  });

  it('the finish: done with one backtest event while running; a run cancelled or already done is RunNotRunning, with no event', async () => {
    const user = await funded(t, 10);
    const deps = { db: t.db, storage: new LocalStorage(t.storageDir), events: new EventLog(t.db, t.clock), clock: t.clock };
    const events = (runId: string) => t.db.models.AppEvent.count({ where: { kind: 'backtest', reference: runId } });
    const { run } = await chargeRun(t.db, t.app.services.ledger, start(user.id, 'EURUSD_M15_done'), {});
    await finishRun(deps, run, result, new Uint8Array([1, 2, 3]), null, 12.4);
    const done = await t.db.models.BacktestRun.findByPk(run.id);
    assert.deepEqual([done?.status, done?.trades, done?.resolved, done?.winrateTp1, done?.winrateTp2, done?.durationMs], ['done', 3, 2, 0.5, null, 12]);
    assert.equal(run.status, 'done');
    assert.equal(await events(run.runId), 1);
    await assert.rejects(finishRun(deps, run, result, new Uint8Array([1]), null, 1), RunNotRunning);
    assert.equal(await events(run.runId), 1, 'a second finish records nothing');

    const { run: cancelled } = await chargeRun(t.db, t.app.services.ledger, start(user.id, 'EURUSD_M15_gone'), {});
    assert.equal(await cancelRun({ db: t.db, ledger: t.app.services.ledger, storage: deps.storage, log: () => {} }, cancelled), 'cancelled');
    await assert.rejects(finishRun(deps, cancelled, result, new Uint8Array([1]), null, 1), RunNotRunning);
    assert.equal(await events(cancelled.runId), 0);
  });

  it('concurrent writes: each its own transaction; one that fails is rolled back alone and reported, the others land', { skip: TEST_DIALECT !== 'sqlite' }, async () => {
    const reference = `dup-${randomUUID()}`;
    const insert = (ref: string) => eventInsertSql(t.db, { kind: 'signup', reference: ref, label: 'x' }, t.clock.now()).replace('INSERT OR IGNORE', 'INSERT');
    await t.db.script([insert(reference)], async () => undefined);
    const refs = Array.from({ length: 30 }, (_, i) => (i === 11 ? reference : `ok-${randomUUID()}`));
    const settled = await Promise.allSettled(
      refs.map((ref, i) =>
        t.db.script(
          [`UPDATE users SET credits = credits WHERE id = -${i + 1}`, insert(`${ref}-before`), insert(ref)],
          async (_, changes) => changes,
        ),
      ),
    );
    settled.forEach((s, i) => {
      if (i === 11) assert.ok(s.status === 'rejected' && isUniqueViolation(s.reason), String((s as PromiseRejectedResult).reason));
      else assert.deepEqual(s, { status: 'fulfilled', value: 1 }, `script ${i}`);
    });
    const landed = await t.db.models.AppEvent.count({ where: { kind: 'signup', label: 'x' } });
    assert.equal(landed, 1 + 29 * 2, 'the failed one left nothing, not even its first insert');
    assert.equal(await t.db.script([`UPDATE users SET credits = credits WHERE id = -1`], async (_, changes) => changes), 0);
  });
});
