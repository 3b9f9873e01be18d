import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeStatistics } from '@bt/core/stats';
import { makeTrades } from './trade-factory.js';

test('ambiguous trades are counted; resolved figures sit beside the conservative ones', () => {
  const trades = makeTrades([
    { at: '2024-04-01T08:00:00Z', path: 'tp2' },
    // SL and TP1 in one candle: conservative SL; the M1 candles say TP1 (then TP2) came first.
    { at: '2024-04-01T09:00:00Z', path: 'sl', ambiguous: true, resolvedTp1Result: 'win', resolvedTp2Result: 'win' },
    // Same candle, and the M1 candles confirm the stop came first.
    { at: '2024-04-01T10:00:00Z', path: 'sl', ambiguous: true, resolvedTp1Result: 'loss', resolvedTp2Result: 'loss' },
    // Flagged, but no lower-timeframe candles covered it: stays conservative.
    { at: '2024-04-01T11:00:00Z', path: 'sl', side: 'sell', ambiguous: true },
    // TP1 clean, then TP2 and SL in one candle, resolved as TP2 first.
    { at: '2024-04-01T12:00:00Z', path: 'tp1sl', side: 'sell', ambiguous: true, resolvedTp2Result: 'win' },
  ]);
  const s = computeStatistics(trades);
  assert.equal(s.ambiguity.ambiguous, 4);
  assert.equal(s.global.ambiguous, 4);
  assert.equal(s.ambiguity.resolvedByLowerTimeframe, 3);
  // Conservative: TP1 2/5 (R 1 -1 -1 -1 1), TP2 1/5.
  assert.equal(s.global.tp1.winrate, 2 / 5);
  assert.equal(s.global.tp2.winrate, 1 / 5);
  const resolved = s.ambiguity.resolved!;
  assert.equal(resolved.tp1.winrate, 3 / 5);
  assert.equal(resolved.tp1.totalR, 1 + 1 - 1 - 1 + 1);
  assert.equal(resolved.tp2.winrate, 3 / 5);
  // A flipped verdict takes the bracket's planned reward: TP2 at 2R.
  assert.equal(resolved.tp2.totalR, 2 + 2 - 1 - 1 + 2);
  assert.equal(resolved.tp1.longestLosingStreak, 2);
  assert.equal(s.sessions.find((x) => x.session === 'Londres')!.ambiguous, 4);
});

test('without any resolved verdict there are no resolved figures', () => {
  const s = computeStatistics(makeTrades([{ at: '2024-04-01T09:00:00Z', path: 'sl', ambiguous: true }]));
  assert.equal(s.ambiguity.ambiguous, 1);
  assert.equal(s.ambiguity.resolvedByLowerTimeframe, 0);
  assert.equal(s.ambiguity.resolved, null);
});
