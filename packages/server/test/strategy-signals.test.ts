import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { balance, funded, importStrategy, ledgerRows, runBacktest } from './support/work.js';

/**
 * What a strategy returns is checked against what the engine will need of it, at import (the dry
 * run) and again in each backtest, with a French sentence naming the signal (docs/strategies-python.md,
 * "What is refused, and how it is said"); a refused backtest charges nothing.
 */
const t = useTestApp({ library: true });

const pullback = (body: string) => `ENTRY_MODE = "pullback"\n\n\ndef detect_zones(candles, params):\n    c = candles["close"]\n${body}\n`;
const ZONE_MISSING = 'Signal n°1 : zone manquante (avec ENTRY_MODE = "pullback", chaque signal porte "zone": {"top": …, "bottom": …}).';

describe(`the signals a strategy returns (${TEST_DIALECT})`, () => {
  it('a pullback strategy whose signals carry no zone is refused at import, not left for a paid backtest', async () => {
    const user = await funded(t, 0);
    const res = await importStrategy(t, user.key, pullback('    return [(i, "buy") for i in range(20, len(c), 50)]'), 'zones.py');
    assert.deepEqual([res.status, res.body.detail], [400, ZONE_MISSING]);
    const zoned = await importStrategy(t, user.key, pullback('    return [{"index": i, "side": "buy", "zone": {"top": c[i] + 0.001, "bottom": c[i]}} for i in range(20, len(c), 50)]'), 'zones.py');
    assert.equal(zoned.status, 201, zoned.text);
    assert.equal(zoned.body.strategy.entry_mode, 'pullback');
  });

  it('an integer past the floats as a stop, a zone edge or an index is refused naming the signal, not as an OverflowError', async () => {
    const user = await funded(t, 0);
    const fn = (signal: string) => `def detect_big(candles, params):\n    return [(5, "buy"), ${signal}]\n`;
    const cases: [string, string][] = [
      ['(6, "sell", 10 ** 400)', "Signal n°2 : stop ~1e+400 n'est pas un prix."],
      ['(6, "sell", -(10 ** 5000))', "Signal n°2 : stop ~-1e+5000 n'est pas un prix."],
      ['{"index": 6, "side": "buy", "zone": {"top": 10 ** 400, "bottom": 1}}', 'Signal n°2 : zone <dict> invalide (top > bottom attendus).'],
      ['(10 ** 5000, "buy")', 'Signal n°2 : index ~1e+5000 hors des bougies (0 à 599).'],
      ['(12345678901234567890123, "buy")', 'Signal n°2 : index 1.23457e+22 hors des bougies (0 à 599).'],
      ['(6, 10 ** 5000)', 'Signal n°2 : side ~1e+5000 invalide (buy ou sell).'],
    ];
    for (const [signal, detail] of cases) {
      const res = await importStrategy(t, user.key, fn(signal), 'big.py');
      assert.deepEqual([res.status, res.body.detail], [400, detail], signal);
    }
    // Within the floats, a stop is a number like any other (the engine judges where it lies).
    const huge = await importStrategy(t, user.key, fn('(6, "sell", 10 ** 300)'), 'big.py');
    assert.equal(huge.status, 201, huge.text);
  });

  it('a signal returned several times is one setup: the list returned three times gives the trades of once', async () => {
    const user = await funded(t, 4);
    const once = 'def detect_repeat(candles, params):\n    return [(i, "buy") for i in range(20, len(candles["close"]), 50)]\n';
    const thrice = once.replace(']\n', '] * 3\n');
    const trades: number[] = [];
    for (const source of [once, thrice]) {
      const imported = await importStrategy(t, user.key, source, 'repeat.py');
      assert.equal(imported.status, 201, imported.text);
      const run = await runBacktest(t, user.key, { strategy: imported.body.strategy.id });
      assert.equal(run.status, 200, run.text);
      trades.push(run.body.summary.trades);
    }
    assert.ok(trades[0] > 0);
    assert.equal(trades[1], trades[0]);
  });

  it('a pullback strategy that drops its zones on real data gets the same sentence from the backtest, uncharged', async () => {
    const user = await funded(t, 4);
    // Zones on the 600 sample candles of the dry run and its look-ahead cuts, none on the month of the backtest.
    const sleeper = pullback('    if len(c) <= 600:\n        return [{"index": i, "side": "buy", "zone": {"top": c[i] + 0.001, "bottom": c[i]}} for i in range(20, len(c), 50)]\n    return [(i, "buy") for i in range(20, len(c), 50)]');
    const imported = await importStrategy(t, user.key, sleeper, 'sleeper.py');
    assert.equal(imported.status, 201, imported.text);
    const run = await runBacktest(t, user.key, { strategy: imported.body.strategy.id });
    assert.deepEqual([run.status, run.body.detail], [400, `${ZONE_MISSING} Aucun crédit n’a été débité.`]);
    assert.equal(await balance(t, user.id), 4);
    assert.equal((await ledgerRows(t, user.id)).length, 3, 'the grant, the spend and its refund');
  });
});
