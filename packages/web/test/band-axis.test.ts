import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bandAxis } from '../src/features/results/bandAxis.js';

const HOURS = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}h`);
const SESSIONS = ['Asie 00-08', 'Londres 08-12', 'Overlap 12-16', 'New York 16-21', 'Off 21-24'];

describe('band chart x axis (readable on a 375 px phone)', () => {
  it('writes all 24 hours flat on a desktop', () => {
    assert.deepEqual(bandAxis(HOURS, 1100), { ticks: HOURS, tickRotate: 0, marginBottom: 36 });
  });

  it('thins the hours on a phone instead of writing them over each other', () => {
    const axis = bandAxis(HOURS, 303);
    assert.equal(axis.tickRotate, 0);
    assert.deepEqual(axis.ticks, ['00h', '03h', '06h', '09h', '12h', '15h', '18h', '21h']);
    // Each shown label has its width and a gap: 3 bands of (303 - 64) / 24 px.
    assert.ok(((303 - 64) / 24) * 3 >= 3 * 6.5 + 6);
  });

  it('keeps every session name on a phone, at an angle, with room below for it', () => {
    const axis = bandAxis(SESSIONS, 303);
    assert.deepEqual(axis.ticks, SESSIONS);
    assert.equal(axis.tickRotate, -45);
    assert.ok(axis.marginBottom > 36 && axis.marginBottom <= 110);
    assert.deepEqual(bandAxis(SESSIONS, 1100).tickRotate, 0);
  });

  it('never divides by zero on an empty chart', () => {
    assert.deepEqual(bandAxis([], 300).ticks, []);
  });
});
