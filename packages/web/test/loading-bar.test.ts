import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LOADING_BAR, LoadingBarController, nextLoadingValue, type Timers } from '../src/shell/loadingBar.js';

/** Manual clock: intervals and timeouts fire when the test advances time. */
function fakeTimers() {
  let now = 0;
  let id = 0;
  const tasks = new Map<number, { at: number; every: number | null; fn: () => void }>();
  const timers: Timers = {
    setInterval: (fn, ms) => (tasks.set(++id, { at: now + ms, every: ms, fn }), id),
    clearInterval: (h) => void tasks.delete(h as number),
    setTimeout: (fn, ms) => (tasks.set(++id, { at: now + ms, every: null, fn }), id),
    clearTimeout: (h) => void tasks.delete(h as number),
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const next = [...tasks.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!next) break;
      const [key, task] = next;
      now = task.at;
      if (task.every === null) tasks.delete(key);
      else task.at += task.every;
      task.fn();
    }
    now = end;
  };
  return { timers, advance };
}

describe('page-loading bar (docs/product.md §1.2, §1.9)', () => {
  it('starts at 8, advances every 180 ms toward 90 without passing it', () => {
    const { timers, advance } = fakeTimers();
    const bar = new LoadingBarController(timers);
    const end = bar.start();
    assert.deepEqual(bar.getState(), { value: LOADING_BAR.min, visible: true });
    advance(179);
    assert.equal(bar.getState().value, 8);
    advance(1);
    assert.ok(bar.getState().value > 8);
    const values: number[] = [];
    for (let i = 0; i < 200; i++) {
      advance(180);
      values.push(bar.getState().value);
    }
    assert.ok(values.every((v, i) => i === 0 || v >= values[i - 1]), 'never goes back');
    assert.equal(Math.max(...values), 90);
    end();
  });

  it('jumps to 100 when done and hides 320 ms later', () => {
    const { timers, advance } = fakeTimers();
    const bar = new LoadingBarController(timers);
    const end = bar.start();
    advance(540);
    end();
    assert.deepEqual(bar.getState(), { value: 100, visible: true });
    advance(319);
    assert.equal(bar.getState().visible, true);
    advance(1);
    assert.equal(bar.getState().visible, false);
  });

  it('waits for the last of overlapping loads', () => {
    const { timers, advance } = fakeTimers();
    const bar = new LoadingBarController(timers);
    const a = bar.start();
    const b = bar.start();
    a();
    a(); // ending twice is harmless
    advance(400);
    assert.ok(bar.getState().value < 100);
    b();
    assert.equal(bar.getState().value, 100);
  });

  it('each step covers a tenth of the way to 90 plus half a point', () => {
    assert.ok(Math.abs(nextLoadingValue(8) - 16.7) < 1e-9);
    assert.equal(nextLoadingValue(89.9), 90);
  });
});
