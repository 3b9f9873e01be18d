import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizeCosts } from '@bt/core/costs';

test('a spread by hour with holes, null or missing hours is refused, naming the hour, not read as no spread', () => {
  const ones = () => Array<number | null | undefined>(24).fill(1);
  const withAt = (h: number, v: null | undefined) => Object.assign(ones(), { [h]: v });
  // new Array(24): 24 holes, which map() skipped: the run had no spread at all, said nowhere.
  assert.throws(() => normalizeCosts({ spreadByHour: new Array(24) }, 'EURUSD'), { message: 'invalid spread_by_hour[0]: undefined (expected a number of pips from 0 to 1,000)' });
  assert.throws(() => normalizeCosts({ spreadByHour: withAt(0, null) as number[] }, 'EURUSD'), { message: 'invalid spread_by_hour[0]: null (expected a number of pips from 0 to 1,000)' });
  assert.throws(() => normalizeCosts({ spreadByHour: withAt(23, undefined) as number[] }, 'EURUSD'), { message: 'invalid spread_by_hour[23]: undefined (expected a number of pips from 0 to 1,000)' });
  const sparse = ones();
  delete sparse[12];
  assert.throws(() => normalizeCosts({ spreadByHour: sparse as number[] }, 'EURUSD'), /invalid spread_by_hour\[12\]: undefined/);
  for (const n of [23, 25]) assert.throws(() => normalizeCosts({ spreadByHour: Array(n).fill(1) }, 'EURUSD'), { message: `invalid spread_by_hour: "${n} values" (expected 24 spreads in pips, one per UTC hour 0 to 23)` });
  assert.deepEqual(normalizeCosts({ spreadByHour: Array(24).fill(0.5) }, 'EURUSD').spreadByHour, Array(24).fill(0.5));
});

test('a cost of -0 is 0, not "-0" in the Config rows', () => {
  const c = normalizeCosts({ spreadPips: -0, commissionPips: -0, slippagePips: -0, spreadByHour: Array(24).fill(-0) }, 'EURUSD');
  for (const v of [c.spreadPips, c.commissionPips, c.slippagePips, ...c.spreadByHour!]) assert.ok(Object.is(v, 0));
});

test('NaN, Infinity, negatives and text are refused in every amount, named', () => {
  for (const [key, field] of [['spreadPips', 'spread_pips'], ['commissionPips', 'commission_pips'], ['slippagePips', 'slippage_pips']] as const) {
    for (const v of [Number.NaN, Infinity, -1, '1', 1001]) assert.throws(() => normalizeCosts({ [key]: v } as never, 'EURUSD'), new RegExp(`: invalid ${field}: `), `${key} ${String(v)}`);
  }
  assert.throws(() => normalizeCosts({ spreadByHour: [...Array(23).fill(1), Number.NaN] }, 'EURUSD'), /: invalid spread_by_hour\[23\]: NaN/);
  assert.throws(() => normalizeCosts({ commissionPerLot: 7 }, 'EURUSD'), { message: 'invalid account_currency: "missing" (required with commission_per_lot: EUR or USD)' });
  assert.throws(() => normalizeCosts({ commissionPerLot: 7, accountCurrency: 'USD' }, 'XAUUSD'), /a lot of XAUUSD has no size bt knows/);
});
