import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { memoryStorage } from '../src/session/keyStorage.js';
import { ETA, ETA_STORAGE_KEY, defaultEtaMs, estimateEtaMs, etaKey, etaText, progressPercent, readEtaHistory, recordEtaRun } from '../src/pages/backtest/eta.js';

describe('ETA (docs/product.md §2.9)', () => {
  it('defaults to 6 s plus 250 ms per day, kept within 4–45 s', () => {
    assert.equal(defaultEtaMs(0), 6000);
    assert.equal(defaultEtaMs(10), 8500);
    assert.equal(defaultEtaMs(31), 13750);
    assert.equal(defaultEtaMs(1000), 45000);
    assert.equal(estimateEtaMs([], 30), 13500);
    assert.equal(estimateEtaMs(undefined, 30), 13500);
  });

  it('scales the median time per day of the history, clamped to 3–60 s', () => {
    const runs = [
      { ms: 2000, days: 10 },
      { ms: 4000, days: 10 },
      { ms: 90000, days: 10 }, // one slow outlier does not move the median
    ];
    assert.equal(estimateEtaMs(runs, 20), 8000);
    assert.equal(estimateEtaMs([{ ms: 100, days: 30 }], 1), ETA.clampMinMs);
    assert.equal(estimateEtaMs([{ ms: 59000, days: 1 }], 30), ETA.clampMaxMs);
  });

  it('keeps the last 15 runs per key in storage', () => {
    const storage = memoryStorage();
    const key = etaKey('official', 'm15');
    assert.equal(key, 'official:M15');
    for (let i = 1; i <= 20; i++) recordEtaRun(storage, key, { ms: i * 100, days: 5 });
    recordEtaRun(storage, etaKey('custom', 'H1'), { ms: 500, days: 1 });
    const history = readEtaHistory(storage);
    assert.equal(history[key].length, 15);
    assert.equal(history[key][0].ms, 600);
    assert.equal(history[key][14].ms, 2000);
    assert.equal(history['custom:H1'].length, 1);
    storage.setItem(ETA_STORAGE_KEY, 'not json');
    assert.deepEqual(readEtaHistory(storage), {});
  });

  it('progress follows the estimate, caps at 98, then 99 once overrun, never 100 while waiting', () => {
    assert.equal(progressPercent(0, 10000), 0);
    assert.equal(progressPercent(5000, 10000), 50);
    assert.equal(progressPercent(9990, 10000), 98);
    assert.equal(progressPercent(11000, 10000), 98);
    assert.equal(progressPercent(12500, 10000), 99);
    assert.equal(progressPercent(600000, 10000), 99);
    assert.equal(etaText(2500, 10000), '≈ 8 s restantes');
    assert.equal(etaText(10000, 10000), 'Presque terminé…');
  });
});
