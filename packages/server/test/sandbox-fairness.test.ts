import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from './support/app.js';
import { openTestDatabase, TEST_DIALECT, type TestDatabase } from './support/db.js';
import { BREAKOUT_PY, balance, funded, importStrategy, runBacktest } from './support/work.js';

/**
 * One account cannot take the sandbox from everyone else (docs/security.md, "Limits and their
 * variables"): it may have as many runs in flight, running or waiting, as the sandbox runs at once;
 * one more is refused at once (429), so the queue stays open to the other accounts.
 */
let tdb: TestDatabase;
let t: TestApp;
before(async () => {
  tdb = await openTestDatabase();
  t = await startTestApp(tdb.db, { library: true, sandboxConcurrency: 1, sandboxLimits: { cpuSeconds: 2, wallMs: 8000 } });
});
after(async () => {
  await t.close();
  await tdb.drop();
});

const LOOP = 'def detect_loop(candles, params):\n    while True:\n        pass\n';
const BUSY = "Tu as déjà 1 exécution de stratégie Python en cours : attends qu'elle se termine avant d'en lancer une autre.";

describe(`the sandbox shared between accounts (${TEST_DIALECT})`, () => {
  it('an account with a run in flight gets 429 for another, uncharged and unarchived; another account is served', async () => {
    const attacker = await funded(t, 2);
    const neighbour = await funded(t, 0);
    const owned = await importStrategy(t, attacker.key, BREAKOUT_PY, 'cassure.py');
    assert.equal(owned.status, 201, owned.text);
    const archived = await t.db.models.ArchivedStrategy.count({ where: { userId: attacker.id } });

    const burning = importStrategy(t, attacker.key, LOOP, 'boucle.py');
    await new Promise((r) => setTimeout(r, 300));
    const second = await importStrategy(t, attacker.key, LOOP, 'boucle2.py');
    assert.deepEqual([second.status, second.body.detail], [429, BUSY]);
    const run = await runBacktest(t, attacker.key, { strategy: owned.body.strategy.id });
    assert.deepEqual([run.status, run.body.detail], [429, `${BUSY} Aucun crédit n’a été débité.`]);
    const served = importStrategy(t, neighbour.key, BREAKOUT_PY, 'voisin.py');

    assert.equal((await burning).status, 400);
    assert.equal((await served).status, 201);
    assert.equal(await balance(t, attacker.id), 2, 'the refused backtest was refunded');
    assert.equal(await t.db.models.ArchivedStrategy.count({ where: { userId: attacker.id } }), archived + 1, 'only the loop that ran is archived');
    // Its run over, the account may run again.
    const again = await importStrategy(t, attacker.key, BREAKOUT_PY, 'encore.py');
    assert.equal(again.status, 201, again.text);
  });
});
