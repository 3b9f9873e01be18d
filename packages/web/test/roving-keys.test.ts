// Arrow keys in the statistics modal's tabs and the avatar's colour radios (WAI-ARIA tabs and
// radio group: one tab stop, arrows, Home, End; docs/web.md "Keyboard in groups").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rovingIndex, rovingTabIndex } from '../src/lib/roving.js';

describe('roving focus among tabs', () => {
  it('moves with Left and Right, wrapping at both ends, and jumps with Home and End', () => {
    assert.equal(rovingIndex('ArrowRight', 0, 7), 1);
    assert.equal(rovingIndex('ArrowRight', 6, 7), 0, 'from the last to the first');
    assert.equal(rovingIndex('ArrowLeft', 3, 7), 2);
    assert.equal(rovingIndex('ArrowLeft', 0, 7), 6, 'from the first to the last');
    assert.equal(rovingIndex('Home', 4, 7), 0);
    assert.equal(rovingIndex('End', 1, 7), 6);
  });

  it('leaves Up, Down and every other key to the browser in a row of tabs', () => {
    for (const key of ['ArrowUp', 'ArrowDown', 'Tab', 'Enter', ' ', 'a', 'PageDown']) assert.equal(rovingIndex(key, 2, 7), null, key);
  });

  it('takes all four arrows in a radio group', () => {
    assert.equal(rovingIndex('ArrowDown', 2, 17, 'both'), 3);
    assert.equal(rovingIndex('ArrowUp', 0, 17, 'both'), 16);
    assert.equal(rovingIndex('ArrowRight', 16, 17, 'both'), 0);
  });

  it('starts from the first when nothing is selected, and does nothing in an empty group', () => {
    assert.equal(rovingIndex('ArrowRight', -1, 5), 1);
    assert.equal(rovingIndex('End', -1, 5), 4);
    assert.equal(rovingIndex('ArrowRight', 0, 0), null);
    assert.equal(rovingIndex('ArrowRight', 0, 1), 0);
  });

  it('moves with Up and Down in a column of tabs (the admin sidebar), leaving Left and Right to the browser', () => {
    assert.equal(rovingIndex('ArrowDown', 0, 7, 'vertical'), 1);
    assert.equal(rovingIndex('ArrowUp', 0, 7, 'vertical'), 6);
    assert.equal(rovingIndex('End', 2, 7, 'vertical'), 6);
    assert.equal(rovingIndex('Home', 5, 7, 'vertical'), 0);
    for (const key of ['ArrowLeft', 'ArrowRight', 'Tab', 'PageDown']) assert.equal(rovingIndex(key, 2, 7, 'vertical'), null, key);
  });

  it('gives the one tab stop to the selected control, else to the first', () => {
    assert.deepEqual([0, 1, 2, 3].map((i) => rovingTabIndex(i, 2)), [-1, -1, 0, -1]);
    assert.deepEqual([0, 1, 2].map((i) => rovingTabIndex(i, -1)), [0, -1, -1]);
  });
});
