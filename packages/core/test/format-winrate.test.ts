import { test } from 'node:test';
import assert from 'node:assert/strict';
import { homeWinrateClass, isHotWinrate, parseWinrate, winrateClass } from '@bt/core/format';

test('winrate parsing: numbers, percent strings, comma decimals; values <= 1 are fractions', () => {
  assert.equal(parseWinrate(0.62), 62);
  assert.equal(parseWinrate(1), 100);
  assert.equal(parseWinrate(0), 0);
  assert.equal(parseWinrate(62), 62);
  assert.equal(parseWinrate('62.5'), 62.5);
  assert.equal(parseWinrate('62,5'), 62.5);
  assert.equal(parseWinrate('62,5 %'), 62.5);
  assert.equal(parseWinrate('62.5%'), 62.5);
  assert.equal(parseWinrate('0,625'), 62.5);
  assert.equal(parseWinrate(' 0.5 '), 50);
  assert.equal(parseWinrate('.5'), 50);
  // An explicit % means the number is already a percentage.
  assert.equal(parseWinrate('0.5%'), 0.5);
  assert.equal(parseWinrate('62\u00a0%'), 62);
  for (const bad of ['', '%', 'abc', '6 2', '62.5.1', '1,2,3', null, undefined, Number.NaN, -0.2, '-5', {}, true]) {
    assert.equal(parseWinrate(bad), null, `${String(bad)}`);
  }
});

test('home classes: great at 70, good at 55; hot at 70', () => {
  assert.equal(homeWinrateClass(70), 'great');
  assert.equal(homeWinrateClass(0.7), 'great');
  assert.equal(homeWinrateClass('69,99'), 'good');
  assert.equal(homeWinrateClass(55), 'good');
  assert.equal(homeWinrateClass(54.99), null);
  assert.equal(homeWinrateClass('n/a'), null);
  assert.equal(isHotWinrate(0.7), true);
  assert.equal(isHotWinrate(69.99), false);
  assert.equal(isHotWinrate(null), false);
});

test('working-area classes: good at 60, mid at 40, else bad', () => {
  assert.equal(winrateClass(60), 'good');
  assert.equal(winrateClass(0.6), 'good');
  assert.equal(winrateClass('59.99%'), 'mid');
  assert.equal(winrateClass(40), 'mid');
  assert.equal(winrateClass(0.3999), 'bad');
  assert.equal(winrateClass(0), 'bad');
  assert.equal(winrateClass(''), null);
});
