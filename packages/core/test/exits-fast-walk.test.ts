import { test } from 'node:test';
import assert from 'node:assert/strict';
import { priceBlocks, fastWalk, newWalkState, walk, walkIn, walkOutCandles, walkOutPrices } from '@bt/core/simulate';
import { seededRandom } from '@bt/core/candles';

/** A random walk of `n` candles around 100 with cent prices (ties between levels happen). */
function randomSeries(rand: () => number, n: number) {
  const high = new Float64Array(n);
  const low = new Float64Array(n);
  let price = 100;
  for (let k = 0; k < n; k++) {
    const c = Math.round((price + (rand() - 0.5) * 2) * 100) / 100;
    high[k] = Math.max(price, c) + Math.round(rand() * 50) / 100;
    low[k] = Math.min(price, c) - Math.round(rand() * 50) / 100;
    price = c;
  }
  return { high, low, blocks: priceBlocks(high, low) };
}

/** Walks one trade both ways and asserts the same outcome; returns whether it was ambiguous. */
function sameOutcome(series: ReturnType<typeof randomSeries>, rand: () => number, j: number, risk: number, label: string): boolean {
  const { high, low, blocks } = series;
  const dir = rand() < 0.5 ? 1 : -1;
  const resting = rand() < 0.5;
  const fill = Math.round((low[j] + (high[j] - low[j]) * rand()) * 100) / 100;
  const sl = fill - dir * risk;
  const tp1 = fill + dir * risk * (0.5 + rand());
  const tp2 = tp1 + dir * risk * rand() * 2;
  const s = newWalkState(dir, fill, sl, tp1, tp2);
  walk(s, high, low, j, high.length, resting);
  walkIn.set([fill, sl, tp1, tp2]);
  fastWalk(blocks, dir, j, resting);
  const o = walkOutCandles;
  assert.deepEqual(
    [o[0], o[1], o[2], o[3], o[4], o[5] === 1, walkOutPrices[0], walkOutPrices[1]],
    [s.r1, s.r2, s.tp1At, s.tp2At, s.slAt, s.ambiguousAt >= 0, s.fav, s.adv],
    `${label}: dir ${dir} j ${j} resting ${resting} risk ${risk}`,
  );
  return o[5] === 1;
}

test('the block-skipping walk gives exactly the results of the candle-by-candle walk', () => {
  const rand = seededRandom(7);
  const series = randomSeries(rand, 20000);
  let ambiguous = 0;
  for (let trial = 0; trial < 8000; trial++) {
    const j = Math.floor(rand() * 20000);
    // Some wide trades so that whole superblocks (256 candles) get skipped too.
    const risk = rand() < 0.2 ? 20 + Math.round(rand() * 4000) / 100 : 0.5 + Math.round(rand() * 600) / 100;
    if (sameOutcome(series, rand, j, risk, `trial ${trial}`)) ambiguous++;
  }
  assert.ok(ambiguous > 10, `some ambiguous trades were exercised (${ambiguous})`);
});

// Series whose length is not a whole number of blocks (16) or superblocks (256), trades of every
// width from every kind of start (inside a block, on a block or superblock boundary, near the
// end), and levels that nothing reaches: the group searches must give the plain walk's results.
test('the group searches of the fast walk agree with the plain walk at group edges and series ends', () => {
  const rand = seededRandom(11);
  let checked = 0;
  for (const n of [1, 15, 17, 255, 257, 1000, 4099]) {
    const series = randomSeries(rand, n);
    for (let trial = 0; trial < 1500; trial++) {
      const pick = rand();
      const j = pick < 0.3 ? Math.min(n - 1, Math.floor(rand() * (n / 16 + 1)) * 16) : pick < 0.4 ? Math.max(0, n - 1 - Math.floor(rand() * 20)) : Math.floor(rand() * n);
      const risk = rand() < 0.1 ? 1000 : rand() < 0.3 ? 5 + rand() * 40 : 0.3 + rand() * 5;
      sameOutcome(series, rand, j, risk, `n ${n} trial ${trial}`);
      checked++;
    }
  }
  assert.equal(checked, 7 * 1500);
});
