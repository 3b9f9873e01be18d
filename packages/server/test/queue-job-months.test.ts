import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isMonthRefs } from '../src/jobs/worker.js';
import { useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';

const t = useTestApp({ library: true });

describe(`a queued backtest's library months (${TEST_DIALECT})`, () => {
  it("the worker's read from the months the API chose gives the API's candles, without the index", async () => {
    const store = t.app.services.datasets;
    const from = Date.UTC(2023, 1, 1);
    const to = Date.UTC(2023, 1, 28, 23, 59, 59, 999);
    const loaded = (await store.load('EURUSD', 'M15', from, to))!;
    assert.deepEqual(Object.keys(loaded.datasets[0]).sort(), ['checksum', 'ipcPath', 'month', 'path', 'rows']);
    // As the job carries them: JSON through Redis.
    const months = JSON.parse(JSON.stringify(loaded.datasets));
    assert.ok(isMonthRefs(months));
    // The index emptied: the months' files are read all the same (no query on the way).
    await t.db.models.Dataset.destroy({ where: {} });
    try {
      const again = (await store.loadFromMonths(months, 'EURUSD', 'M15', from, to))!;
      assert.equal(again.start, loaded.start);
      assert.equal(again.inPeriod, loaded.inPeriod);
      assert.deepEqual(Array.from(again.candles.time), Array.from(loaded.candles.time));
      assert.deepEqual(Array.from(again.candles.close), Array.from(loaded.candles.close));
      assert.equal(await store.load('EURUSD', 'M15', from, to), null, 'load itself asks the (now empty) index');
    } finally {
      await store.reindex();
    }
    assert.equal(await store.loadFromMonths([], 'EURUSD', 'M15', from, to), null);
  });

  it('a job whose months are not what the API writes is looked up by the worker instead', () => {
    const good = { month: '2023-01', rows: 2000, checksum: 'ab', path: 'EURUSD/M15/x.csv', ipcPath: 'EURUSD/M15/x.arrow' };
    assert.equal(isMonthRefs([good]), true);
    for (const bad of [null, undefined, [], 'months', [null], [{ ...good, rows: -1 }], [{ ...good, rows: 1.5 }], [{ ...good, path: 3 }], [{ ...good, checksum: undefined }], [good, {}]]) {
      assert.equal(isMonthRefs(bad), false, JSON.stringify(bad));
    }
  });
});
