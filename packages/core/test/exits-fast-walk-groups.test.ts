import { test } from 'node:test';
import assert from 'node:assert/strict';
import { priceBlocks, fastWalk, newWalkState, walk, walkIn, walkOutCandles, walkOutPrices } from '@bt/core/simulate';
import { seededRandom as prng } from '@bt/core/candles';

// Series whose length is not a whole number of blocks (16) or superblocks (256), trades of every
// width from every kind of start (inside a block, on a block or superblock boundary, near the
// end), and levels that nothing reaches: the group searches must give the plain walk's results.
test('the group searches of the fast walk agree with the plain walk at group edges and series ends', () => {
  const rand = prng(11);
  let checked = 0;
  for (const n of [1, 15, 17, 255, 257, 1000, 4099]) {
    const high = new Float64Array(n);
    const low = new Float64Array(n);
    let price = 100;
    for (let k = 0; k < n; k++) {
      const c = Math.round((price + (rand() - 0.5) * 2) * 100) / 100;
      high[k] = Math.max(price, c) + Math.round(rand() * 50) / 100;
      low[k] = Math.min(price, c) - Math.round(rand() * 50) / 100;
      price = c;
    }
    const blocks = priceBlocks(high, low);
    for (let trial = 0; trial < 1500; trial++) {
      const dir = rand() < 0.5 ? 1 : -1;
      const pick = rand();
      const j = pick < 0.3 ? Math.min(n - 1, Math.floor(rand() * (n / 16 + 1)) * 16) : pick < 0.4 ? Math.max(0, n - 1 - Math.floor(rand() * 20)) : Math.floor(rand() * n);
      const resting = rand() < 0.5;
      const fill = Math.round((low[j] + (high[j] - low[j]) * rand()) * 100) / 100;
      const risk = rand() < 0.1 ? 1000 : rand() < 0.3 ? 5 + rand() * 40 : 0.3 + rand() * 5;
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
        `n ${n} trial ${trial}: dir ${dir} j ${j} resting ${resting} risk ${risk}`,
      );
      checked++;
    }
  }
  assert.equal(checked, 7 * 1500);
});
