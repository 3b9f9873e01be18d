import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRandom } from '@bt/core/candles';
import { priceRounding, roundPrice } from '@bt/core/simulate';

// roundPrice replaces Math.round's branch by arithmetic (docs/engine.md §11): it must give
// `Math.round(x * scale) / scale` for every double, the sign of zero included.
const reference = (x: number, scale: number) => Math.round(x * scale) / scale;

function check(x: number, scale: number): void {
  const got = roundPrice(x, scale);
  const want = reference(x, scale);
  const show = (v: number) => (Object.is(v, -0) ? '-0' : String(v));
  assert.ok(Object.is(got, want), `roundPrice(${show(x)}, ${scale}) = ${show(got)}, Math.round gives ${show(want)}`);
}

const SCALES = [1, 10, priceRounding(0.0001), priceRounding(0.01), priceRounding(0.1), priceRounding(1)];

test('roundPrice: halves, their neighbours, zeros and non-finite values', () => {
  const up = (x: number) => x + Math.abs(x) * Number.EPSILON;
  const specials = [
    0, -0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994, 0.5000000000000001, -0.5000000000000001,
    1e-300, -1e-300, Number.MIN_VALUE, -Number.MIN_VALUE, 2 ** 52 - 0.5, 2 ** 52 + 1, -(2 ** 52) + 0.5, 2 ** 53, 2 ** 53 + 2, -(2 ** 53),
    Number.MAX_VALUE, -Number.MAX_VALUE, Infinity, -Infinity, NaN, 4503599627370495.5, -4503599627370495.5,
  ];
  for (const x of specials) for (const d of [x, up(x), -up(-x)]) check(d, 1);
  for (const scale of SCALES) for (const x of specials) check(x / scale, scale);
});

test('roundPrice: prices a rounding error away from a multiple of 1/scale, and random doubles', () => {
  const random = seededRandom(7);
  for (const scale of SCALES) {
    for (let i = 0; i < 20_000; i++) {
      const whole = Math.floor(random() * 2e8) - 1e8;
      const half = random() < 0.3 ? 0.5 : 0;
      const y = (whole + half) / scale;
      // The level's own arithmetic (price +- pips * pip) leaves it a few ulps either side.
      check(y, scale);
      check(y + (random() - 0.5) * 8 * Number.EPSILON * Math.abs(y), scale);
      check(1.1 + (random() < 0.5 ? -1 : 1) * Math.floor(random() * 100) * 0.0001, scale);
      const bits = new Float64Array(new Uint32Array([Math.floor(random() * 2 ** 32), Math.floor(random() * 2 ** 32)]).buffer)[0];
      check(bits, scale);
    }
  }
});
