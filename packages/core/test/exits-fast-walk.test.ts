import { test } from 'node:test';
import assert from 'node:assert/strict';
import { priceBlocks, fastWalk, newWalkState, walk, walkIn, walkOutCandles, walkOutPrices } from '@bt/core/simulate';
import { seededRandom as prng } from '@bt/core/candles';

test('the block-skipping walk gives exactly the results of the candle-by-candle walk', () => {
  const rand = prng(7);
  const n = 20000;
  const high = new Float64Array(n);
  const low = new Float64Array(n);
  let price = 100;
  for (let k = 0; k < n; k++) {
    const o = price;
    const c = Math.round((o + (rand() - 0.5) * 2) * 100) / 100;
    high[k] = Math.max(o, c) + Math.round(rand() * 50) / 100;
    low[k] = Math.min(o, c) - Math.round(rand() * 50) / 100;
    price = c;
  }
  const blocks = priceBlocks(high, low);
  let checked = 0;
  let ambiguous = 0;
  for (let trial = 0; trial < 8000; trial++) {
    const dir = rand() < 0.5 ? 1 : -1;
    const j = Math.floor(rand() * n);
    const resting = rand() < 0.5;
    const fill = Math.round((low[j] + (high[j] - low[j]) * rand()) * 100) / 100;
    // Some wide trades so that whole superblocks (256 candles) get skipped too.
    const risk = rand() < 0.2 ? 20 + Math.round(rand() * 4000) / 100 : 0.5 + Math.round(rand() * 600) / 100;
    const sl = fill - dir * risk;
    const tp1 = fill + dir * risk * (0.5 + rand());
    const tp2 = tp1 + dir * risk * rand() * 2;
    const s = newWalkState(dir, fill, sl, tp1, tp2);
    walk(s, high, low, j, n, resting);
    walkIn.set([fill, sl, tp1, tp2]);
    fastWalk(blocks, dir, j, resting);
    const o = walkOutCandles;
    assert.deepEqual(
      [o[0], o[1], o[2], o[3], o[4], o[5] === 1, walkOutPrices[0], walkOutPrices[1]],
      [s.r1, s.r2, s.tp1At, s.tp2At, s.slAt, s.ambiguousAt >= 0, s.fav, s.adv],
      `trial ${trial}: dir ${dir} j ${j} resting ${resting}`,
    );
    checked++;
    if (o[5] === 1) ambiguous++;
  }
  assert.equal(checked, 8000);
  assert.ok(ambiguous > 10, `some ambiguous trades were exercised (${ambiguous})`);
});
