import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as aq from 'arquero';
import { computeStatistics, sessionForHour, SESSION_BUCKETS, wilsonInterval } from '@bt/core/stats';
import { makeTrades, type Path } from './trade-factory.js';
import { seededRandom as random } from '@bt/core/candles';

test('session buckets by UTC entry hour, boundaries included', () => {
  const expected: Record<number, string> = {
    0: 'Asie', 7: 'Asie', 8: 'Londres', 12: 'Londres', 13: 'Londres/New York', 16: 'Londres/New York',
    17: 'New York', 21: 'New York', 22: 'Hors session', 23: 'Hors session',
  };
  for (const [hour, name] of Object.entries(expected)) assert.equal(sessionForHour(Number(hour)), name, `hour ${hour}`);
  assert.deepEqual(SESSION_BUCKETS.map((b) => b.name), ['Asie', 'Londres', 'Londres/New York', 'New York', 'Hors session']);
  assert.throws(() => sessionForHour(24), /invalid hour: 24/);
});

test('sessions, hours and weekdays of a hand-made run', () => {
  const trades = makeTrades([
    { at: '2024-01-08T07:59:00Z', path: 'tp2' }, //  Mon, hour 7, Asie
    { at: '2024-01-08T08:00:00Z', path: 'sl' }, //   Mon, hour 8, Londres
    { at: '2024-01-08T08:30:00Z', path: 'tp1sl' }, // Mon, hour 8, Londres
    { at: '2024-01-10T16:55:00Z', path: 'sl', ambiguous: true }, // Wed, hour 16, Londres/New York
    { at: '2024-01-13T21:00:00Z', path: 'open' }, // Sat, hour 21, New York
    { at: '2024-01-14T22:00:00Z', path: 'tp2', side: 'sell' }, // Sun, hour 22, Hors session
  ]);
  const s = computeStatistics(trades);
  const sessions = Object.fromEntries(s.sessions.map((x) => [x.session, [x.trades, x.tp1Wins, x.sl, x.open, x.ambiguous]]));
  assert.deepEqual(sessions, {
    Asie: [1, 1, 0, 0, 0],
    Londres: [2, 1, 1, 0, 0],
    'Londres/New York': [1, 0, 1, 0, 1],
    'New York': [1, 0, 0, 1, 0],
    'Hors session': [1, 1, 0, 0, 0],
  });
  assert.deepEqual(s.sessions.map((x) => x.hoursUtc), ['00-07', '08-12', '13-16', '17-21', '22-23']);
  assert.deepEqual(s.byHour.map((h) => h.hour), Array.from({ length: 24 }, (_, i) => i));
  assert.deepEqual(
    s.byHour.filter((h) => h.trades > 0).map((h) => [h.hour, h.trades, h.tp1.winrate]),
    [[7, 1, 1], [8, 2, 0.5], [16, 1, 0], [21, 1, null], [22, 1, 1]],
  );
  assert.equal(s.byHour[3].trades, 0);
  assert.equal(s.byHour[3].tp1.winrate, null);
  assert.deepEqual(s.byWeekday.map((d) => [d.label, d.trades]), [
    ['Lun', 3], ['Mar', 0], ['Mer', 1], ['Jeu', 0], ['Ven', 0], ['Sam', 1], ['Dim', 1],
  ]);
  assert.deepEqual(s.byWeekday[0].tp1.winrateCi95, wilsonInterval(2, 3));
  assert.equal(s.byWeekday[0].tp2.winrate, 1 / 3);
});

test('grouped counts agree with an independent Arquero group-by on 3,000 random trades', () => {
  const next = random(20240101);
  const paths: Path[] = ['tp2', 'tp1sl', 'tp1open', 'sl', 'sl', 'open'];
  const start = Date.parse('2024-01-01T00:00:00Z');
  const trades = makeTrades(
    Array.from({ length: 3000 }, () => ({
      at: new Date(start + Math.floor(next() * 365 * 288) * 300_000).toISOString(),
      path: paths[Math.floor(next() * paths.length)],
      side: next() < 0.5 ? ('buy' as const) : ('sell' as const),
      ambiguous: next() < 0.05,
    })),
  );
  const s = computeStatistics(trades);
  const table = aq.from(
    trades.map((t) => ({
      hour: t.hour,
      weekday: t.weekday,
      session: t.session,
      tp1Win: t.tp1Result === 'win' ? 1 : 0,
      tp1Loss: t.tp1Result === 'loss' ? 1 : 0,
      tp2Win: t.tp2Result === 'win' ? 1 : 0,
      tp2Loss: t.tp2Result === 'loss' ? 1 : 0,
      ambiguous: t.ambiguous ? 1 : 0,
      rTp1: t.rTp1,
    })),
  );
  const rollup = {
    trades: aq.op.count(),
    tp1Win: aq.op.sum('tp1Win'),
    tp1Loss: aq.op.sum('tp1Loss'),
    tp2Win: aq.op.sum('tp2Win'),
    tp2Loss: aq.op.sum('tp2Loss'),
    ambiguous: aq.op.sum('ambiguous'),
    rTp1: aq.op.sum('rTp1'),
  };
  type Row = { trades: number; tp1Win: number; tp1Loss: number; tp2Win: number; tp2Loss: number; ambiguous: number; rTp1: number };
  const check = (key: string, keyOf: (row: Record<string, unknown>) => number | string, groups: ReadonlyArray<{ key: number | string } & Parameters<typeof same>[1]>) => {
    const expected = new Map((table.groupby(key).rollup(rollup).objects() as Array<Row & Record<string, unknown>>).map((row) => [keyOf(row), row]));
    for (const g of groups) same(expected.get(g.key), g, `${key} ${g.key}`);
  };
  const same = (row: Row | undefined, g: { trades: number; tp1Wins: number; sl: number; tp2Wins: number; ambiguous: number; tp1: { totalR: number }; tp2: { losses: number } }, label: string) => {
    const r = row ?? { trades: 0, tp1Win: 0, tp1Loss: 0, tp2Win: 0, tp2Loss: 0, ambiguous: 0, rTp1: 0 };
    assert.deepEqual(
      [g.trades, g.tp1Wins, g.sl, g.tp2Wins, g.tp2.losses, g.ambiguous],
      [r.trades, r.tp1Win, r.tp1Loss, r.tp2Win, r.tp2Loss, r.ambiguous],
      label,
    );
    assert.ok(Math.abs(g.tp1.totalR - r.rTp1) < 1e-9, label);
  };
  check('hour', (row) => row.hour as number, s.byHour.map((h) => ({ ...h, key: h.hour })));
  check('weekday', (row) => row.weekday as number, s.byWeekday.map((d) => ({ ...d, key: d.weekday })));
  check('session', (row) => row.session as string, s.sessions.map((x) => ({ ...x, key: x.session })));
  assert.equal(s.byHour.reduce((n, h) => n + h.trades, 0), 3000);
});
