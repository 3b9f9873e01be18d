/**
 * forEachBounded (src/datasets/bounded.ts), which lets a reindex read a few months at once:
 * never more than its limit in flight, every item once, and a failure that leaves nothing running.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forEachBounded } from '../src/datasets/bounded.js';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('forEachBounded', () => {
  it('runs every item once, never more than the limit at a time, and uses the whole limit', async () => {
    for (const [count, limit] of [[0, 4], [1, 4], [3, 4], [25, 4], [25, 1], [7, 100]]) {
      let running = 0;
      let most = 0;
      const seen: number[] = [];
      await forEachBounded(Array.from({ length: count }, (_, i) => i), limit, async (item, index) => {
        assert.equal(item, index);
        running++;
        most = Math.max(most, running);
        await tick((item * 7) % 5);
        seen.push(item);
        running--;
      });
      assert.deepEqual([...seen].sort((a, b) => a - b), Array.from({ length: count }, (_, i) => i), `${count} items, limit ${limit}`);
      assert.equal(most, Math.min(count, limit), `${count} items, limit ${limit}: at most ${most} at once`);
      assert.equal(running, 0);
    }
  });

  it('rejects with the first failure once the items already started have ended, and starts no other', async () => {
    const started: number[] = [];
    let ended = 0;
    const failure = new Error('month 2 does not read');
    await assert.rejects(
      forEachBounded([0, 1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
        started.push(item);
        if (item === 2) {
          await tick(1);
          throw failure;
        }
        if (item === 4) throw new Error('a later failure is not the one reported');
        await tick(20);
        ended++;
      }),
      (error) => error === failure,
    );
    // 0, 1 and 2 at once; 2 fails first, while 0 and 1 still run: nothing starts after it.
    assert.deepEqual(started, [0, 1, 2]);
    assert.equal(ended, 2, 'the items started before the failure ran to their end');
  });

  it('a limit below one still runs the items, one at a time', async () => {
    const order: number[] = [];
    await forEachBounded([1, 2, 3], 0, async (item) => {
      order.push(item);
    });
    assert.deepEqual(order, [1, 2, 3]);
  });
});
