// FVG zones and their mitigation against smart-money-concepts' own answers on its EURUSD M15 file
// (fixtures/smc, copied from joshyattridge/smart-money-concepts; provenance in fixtures/README.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectFvg, listZones, mitigationIndices } from '@bt/core';
import { readCandlesFile } from '@bt/core/node';

const fixtures = join(import.meta.dirname, '../../../fixtures/smc');

/** Row i of the expected file describes the gap labelled on candle i (the middle candle). */
function expected() {
  const lines = readFileSync(join(fixtures, 'expected/fvg_result_data.csv'), 'utf8').trim().split(/\r?\n/);
  assert.equal(lines[0], 'FVG,Top,Bottom,MitigatedIndex');
  return lines.slice(1).map((line) => {
    const [fvg, top, bottom, mitigated] = line.split(',');
    return fvg === '' ? null : { side: Number(fvg), top: Number(top), bottom: Number(bottom), mitigated: Number(mitigated) };
  });
}

test('FVG zones, sides and mitigation agree exactly with smart-money-concepts on EURUSD M15', async () => {
  const { candles } = await readCandlesFile(join(fixtures, 'EURUSD_15M.csv'), { utcOffset: '+02:00', symbol: 'EURUSD' });
  const rows = expected();
  assert.equal(rows.length, candles.length);
  const zones = detectFvg(candles);
  const mitigated = mitigationIndices(zones, candles);
  const ours = new Map<number, { side: number; top: number; bottom: number; mitigated: number }>();
  for (let z = 0; z < zones.count; z++) {
    assert.equal(zones.confirmedAt[z], zones.formedAt[z] + 1, 'known at the close of the candle after the middle one');
    // The peer writes 0 for "never mitigated".
    ours.set(zones.formedAt[z], { side: zones.side[z], top: zones.top[z], bottom: zones.bottom[z], mitigated: Math.max(0, mitigated[z]) });
  }
  const theirs = new Map<number, NonNullable<(typeof rows)[number]>>();
  rows.forEach((r, i) => r && theirs.set(i, r));
  assert.equal(theirs.size, 5020);
  assert.equal(ours.size, theirs.size);
  let mismatches = 0;
  for (const [i, r] of theirs) {
    const o = ours.get(i);
    if (!o || o.side !== r.side || o.top !== r.top || o.bottom !== r.bottom || o.mitigated !== r.mitigated) {
      if (++mismatches <= 5) assert.fail(`candle ${i}: ours ${JSON.stringify(o)}, theirs ${JSON.stringify(r)}`);
    }
  }
  assert.equal(mismatches, 0);
  assert.ok([...theirs.values()].some((r) => r.mitigated === 0), 'the file has never-mitigated gaps too');
});

test('the zones export lists the same gaps with times, and their first fill under the entry rules', async () => {
  const { candles } = await readCandlesFile(join(fixtures, 'EURUSD_15M.csv'), { utcOffset: '+02:00', symbol: 'EURUSD' });
  const rows = expected();
  const zones = listZones(candles, 'fvg');
  assert.equal(zones.length, 5020);
  for (const z of zones) {
    const r = rows[z.formed_index]!;
    assert.deepEqual([z.side, z.top, z.bottom, z.mitigated_index ?? 0], [r.side > 0 ? 'buy' : 'sell', r.top, r.bottom, r.mitigated]);
    assert.equal(z.formed_at, candles.time[z.formed_index]);
    assert.equal(z.confirmed_at, candles.time[z.confirmed_index]);
    if (z.filled_index !== null) {
      const wait = z.filled_index - z.confirmed_index;
      assert.ok(wait >= 3 && wait <= 20, `filled within the default wait window (${wait})`);
      assert.ok(z.mitigated_index !== null && z.filled_index >= z.mitigated_index, 'a fill is a touch, so never before mitigation');
    }
  }
  assert.ok(zones.filter((z) => z.filled_index !== null).length > 1000);
});
