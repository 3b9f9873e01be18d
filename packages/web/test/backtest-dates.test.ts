import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATE_MESSAGES, dateError, periodDays, presetRange } from '../src/pages/backtest/dates.js';

const NOW = Date.parse('2025-03-15T18:30:00Z');

describe('backtest dates (docs/product.md §2.2, §2.5)', () => {
  it('has the four presets', () => {
    assert.deepEqual(presetRange('last7', NOW), { start: '2025-03-09', end: '2025-03-15' });
    assert.deepEqual(presetRange('last30', NOW), { start: '2025-02-14', end: '2025-03-15' });
    assert.deepEqual(presetRange('thisMonth', NOW), { start: '2025-03-01', end: '2025-03-15' });
    assert.deepEqual(presetRange('lastMonth', NOW), { start: '2025-02-01', end: '2025-02-28' });
    assert.deepEqual(presetRange('lastMonth', Date.parse('2025-01-10T00:00:00Z')), { start: '2024-12-01', end: '2024-12-31' });
  });

  it('every preset fits the 31-day limit', () => {
    for (const preset of ['last7', 'last30', 'thisMonth', 'lastMonth'] as const) {
      for (const day of ['2024-03-31', '2025-01-31', '2025-12-01']) {
        const range = presetRange(preset, Date.parse(`${day}T12:00:00Z`));
        assert.equal(dateError(range.start, range.end, false), null, `${preset} on ${day}`);
      }
    }
  });

  it('counts both ends and gives the spec messages', () => {
    assert.equal(periodDays('2025-01-01', '2025-01-31'), 31);
    assert.equal(periodDays('2025-01-01', 'x'), null);
    assert.equal(dateError('2025-02-02', '2025-02-01', false), 'La date de début doit être ≤ à la date de fin.');
    assert.equal(dateError('2025-01-01', '2025-02-01', false), 'Période trop longue (32 jours). Maximum : 31 jours.');
    assert.equal(DATE_MESSAGES.tooLong(45), 'Période trop longue (45 jours). Maximum : 31 jours.');
    assert.equal(dateError('2025-01-01', '2025-06-01', true), null, 'admins bypass the limit');
    assert.equal(dateError('2025-01-01', '2025-01-01', false), null);
  });
});
