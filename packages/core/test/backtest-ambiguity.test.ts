// Ambiguity resolution end to end on real data: H1 candles built from the smc EURUSD M15 file,
// run with those M15 candles as the lower timeframe.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { candlesFromColumns, runBacktest, type Candles } from '@bt/core';
import { readCandlesFile } from '@bt/core/node';

const HOUR = 3_600_000;

/** H1 candles from M15 ones (opening time floored to the hour). */
function hourly(m15: Candles): Candles {
  const t: number[] = [], o: number[] = [], h: number[] = [], l: number[] = [], c: number[] = [], v: number[] = [];
  for (let i = 0; i < m15.length; i++) {
    const hour = Math.floor(m15.time[i] / HOUR) * HOUR;
    const k = t.length - 1;
    if (k >= 0 && t[k] === hour) {
      h[k] = Math.max(h[k], m15.high[i]);
      l[k] = Math.min(l[k], m15.low[i]);
      c[k] = m15.close[i];
      v[k] += m15.volume[i];
    } else {
      t.push(hour); o.push(m15.open[i]); h.push(m15.high[i]); l.push(m15.low[i]); c.push(m15.close[i]); v.push(m15.volume[i]);
    }
  }
  const f = (a: number[]) => Float64Array.from(a);
  return candlesFromColumns({ time: f(t), open: f(o), high: f(h), low: f(l), close: f(c), volume: f(v) }, { symbol: 'EURUSD', timeframe: 'H1' });
}

/** The first of SL or target that the M15 candles of one H1 candle reach, by brute force; null when one M15 candle holds both. */
function firstInside(m15: Candles, hourStart: number, from: number, buy: boolean, sl: number, tp: number): 'sl' | 'tp' | null | 'none' {
  for (let i = 0; i < m15.length; i++) {
    const t = m15.time[i];
    if (t < hourStart || t < from) continue;
    if (t >= hourStart + HOUR) break;
    const slHit = buy ? m15.low[i] <= sl : m15.high[i] >= sl;
    const tpHit = buy ? m15.high[i] >= tp : m15.low[i] <= tp;
    if (slHit && tpHit) return null;
    if (slHit) return 'sl';
    if (tpHit) return 'tp';
  }
  return 'none';
}

test('ambiguous H1 trades are resolved by the M15 candles inside them, and the figures are reported both ways', async () => {
  const { candles: m15 } = await readCandlesFile(join(import.meta.dirname, '../../../fixtures/smc/EURUSD_15M.csv'), { utcOffset: '+02:00', symbol: 'EURUSD' });
  const h1 = hourly(m15);
  const request = { strategy: 'fvg_impulsive', symbol: 'EURUSD', slPips: 10, tp1Pips: 10, tp2Pips: 20 } as const;
  const plain = await runBacktest(h1, request);
  const resolved = await runBacktest(h1, { ...request, ltf: m15 });
  assert.equal(resolved.ambiguity.lowerTimeframe, 'M15');
  assert.equal(plain.ambiguity.lowerTimeframe, null);
  assert.deepEqual(resolved.trades.map((t) => [t.entryTime, t.outcome, t.ambiguous]), plain.trades.map((t) => [t.entryTime, t.outcome, t.ambiguous]), 'the conservative results do not move');
  const ambiguous = resolved.trades.filter((t) => t.ambiguous);
  assert.ok(ambiguous.length >= 20, `enough ambiguous trades on real data (${ambiguous.length})`);
  assert.equal(resolved.ambiguity.count, ambiguous.length);
  assert.equal(resolved.ambiguity.resolved + resolved.ambiguity.unresolved, ambiguous.length);
  assert.ok(resolved.ambiguity.resolved > 0);
  for (const t of resolved.trades) {
    if (!t.ambiguous) assert.deepEqual([t.resolvedTp1Result, t.resolvedTp2Result], [null, null]);
  }
  for (const t of plain.trades) assert.deepEqual([t.resolvedTp1Result, t.resolvedTp2Result], [null, null]);
  // Where SL and TP1 shared an H1 candle (TP1 still pending there), brute force over its M15 candles agrees.
  let checked = 0;
  for (const t of ambiguous) {
    if (t.slTime === null || t.tp1Result !== 'loss') continue;
    const buy = t.side === 'buy';
    const from = t.slTime === t.entryTime ? t.entryTime : t.slTime;
    const first = firstInside(m15, t.slTime, from, buy, t.sl, t.tp1);
    if (first === 'tp') assert.equal(t.resolvedTp1Result, 'win', `trade ${t.id}`);
    else if (first === 'sl') assert.equal(t.resolvedTp1Result, 'loss', `trade ${t.id}`);
    else if (first === null) assert.equal(t.resolvedTp1Result, null, `trade ${t.id}`);
    checked++;
  }
  assert.ok(checked >= 10);
  assert.ok(ambiguous.some((t) => t.resolvedTp1Result === 'win') && ambiguous.some((t) => t.resolvedTp1Result === 'loss'), 'both verdicts occur');
  const stats = resolved.statistics.ambiguity;
  assert.equal(stats.ambiguous, ambiguous.length);
  assert.ok(stats.resolved !== null, 'the statistics carry the resolved figures');
  assert.ok(stats.resolved!.tp1.wins >= resolved.statistics.global.tp1.wins, 'resolving can only turn conservative losses into wins');
  assert.match(resolved.warnings.join('\n'), /resolved with M15 candles/);
  await assert.rejects(runBacktest(m15, { ...request, ltf: h1 }), /invalid ltf: its candles \(H1\) are not smaller/);
  await assert.rejects(runBacktest(h1, { ...request, symbol: 'GBPUSD', ltf: m15 }), /invalid ltf: its candles are EURUSD, the run's are GBPUSD/);
});
