import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { StrategySandbox } from '../src/strategies/sandbox/sandbox.js';
import { TEST_SANDBOX_LIMITS, useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { testSandbox } from './support/sandbox.js';
import { BREAKOUT_PY, funded, importStrategy } from './support/work.js';

// Small limits, so the caps are reached in a few requests (docs/strategies-python.md, "Limits per account").
const LIMITS = { maxPerUser: 3, dailyAttempts: 8, failedKept: 2 };
/**
 * The tests' sandbox, whose runs can be held at its door: requests held there have all passed the
 * early count, so a race past it is made, not hoped for (on a slow machine a late request met the
 * count already full and was refused early, a 429 the test did not expect).
 */
class HeldSandbox {
  private held: (() => void)[] | null = null;
  private arrived = 0;
  constructor(private readonly inner: StrategySandbox) {}
  get available() { return this.inner.available; }
  get limits() { return this.inner.limits; }
  get unavailable() { return this.inner.unavailable; }
  hold(): void {
    this.held = [];
    this.arrived = 0;
  }
  /** Resolves once `count` runs wait at the door, then lets them all in; fails if a request was answered before it got there. */
  async releaseWhen(count: number, answered: () => number): Promise<void> {
    while (this.arrived < count) {
      assert.equal(answered(), 0, 'a request was answered before its sandbox run');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const waiting = this.held ?? [];
    this.held = null;
    for (const go of waiting) go();
  }
  async run(request: Parameters<StrategySandbox['run']>[0]) {
    if (this.held) {
      this.arrived++;
      await new Promise<void>((resolve) => this.held!.push(resolve));
    }
    return this.inner.run(request);
  }
}
let sandbox: HeldSandbox;
// 20 sandbox runs of one account at once, so all 20 requests race to the rows rather than being turned away busy.
// Their wall clock is long: 20 Python processes of a harmless file at once, on a loaded 2-core CI
// machine, once took more than TEST_SANDBOX_LIMITS' 6 s (docs/development.md, "Test files sharing a
// process"), and the wall clock is not what this file checks.
const t = useTestApp(async () => {
  sandbox = new HeldSandbox(await testSandbox({ limits: { ...TEST_SANDBOX_LIMITS, wallMs: 30_000 }, concurrency: 20 }));
  return { library: true, config: { strategyQuota: LIMITS }, deps: { sandbox } };
});

const TOO_MANY = "Tu as atteint le maximum de 3 stratégies personnelles. Supprimes-en avant d'en importer ou d'en générer une autre.";
const DAILY = 'Limite quotidienne atteinte : 8 imports ou générations de stratégie par jour. Réessaie demain.';
const REFUSED_PY = 'import os\ndef detect_x(candles, params):\n    return []\n';

const generate = (key: string) => t.request('POST', '/api/gpt/generate-strategy', { key, json: { prompt: 'Achat sur cassure du plus haut des 20 dernières bougies', sl_mode: 'external' } });
const archived = (userId: number, where: Record<string, unknown> = {}) => t.db.models.ArchivedStrategy.findAll({ where: { userId, ...where }, order: [['id', 'ASC']] });

describe(`personal strategies: limits per account (${TEST_DIALECT})`, () => {
  it('20 imports at once one below the maximum of strategies store exactly one; the others get a French 409 and leave no file', async () => {
    const user = await funded(t, 0);
    for (let i = 0; i < 2; i++) assert.equal((await importStrategy(t, user.key, BREAKOUT_PY, `s${i}.py`)).status, 201);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => importStrategy(t, user.key, BREAKOUT_PY, `c${i}.py`)));
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, ...Array(19).fill(409)], answers.filter((a) => a.status !== 409).map((a) => `${a.status} ${a.text}`).join('\n'));
    for (const refused of answers.filter((a) => a.status === 409)) assert.equal(refused.body.detail, TOO_MANY);
    const rows = await t.db.models.UserStrategy.findAll({ where: { userId: user.id } });
    assert.equal(rows.length, 3);
    for (const row of rows) assert.ok(existsSync(join(t.storageDir, row.path)), row.path);
    assert.equal(readdirSync(join(t.storageDir, 'strategies', String(user.id))).length, 3, 'no file of a refused import is left');
    const entries = await archived(user.id);
    assert.deepEqual(entries.map((e) => e.status), ['ok', 'ok', 'ok'], 'one archive entry per stored strategy, none for the refused');

    // At the maximum: refused before any work, generation included; a deletion makes room.
    const more = await importStrategy(t, user.key, BREAKOUT_PY, 'plus.py');
    assert.deepEqual([more.status, more.body.detail], [409, TOO_MANY]);
    const generated = await generate(user.key);
    assert.deepEqual([generated.status, generated.body.detail], [409, TOO_MANY]);
    assert.equal((await archived(user.id)).length, 3, 'a refused generation archives nothing');
    assert.equal((await t.request('DELETE', `/api/user/strategies/${rows[0].id}`, { key: user.key })).status, 200);
    assert.equal((await importStrategy(t, user.key, BREAKOUT_PY, 'place.py')).status, 201);
  });

  it('the daily count holds imports and generations, failed ones included: 20 imports at once one below it store exactly one, then a French 429', async () => {
    const user = await funded(t, 0);
    for (let i = 0; i < 7; i++) assert.equal((await importStrategy(t, user.key, REFUSED_PY, `bad${i}.py`)).status, 400);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => importStrategy(t, user.key, BREAKOUT_PY, `c${i}.py`)));
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, ...Array(19).fill(429)], answers.filter((a) => a.status !== 429).map((a) => `${a.status} ${a.text}`).join('\n'));
    for (const refused of answers.filter((a) => a.status === 429)) assert.equal(refused.body.detail, DAILY);
    assert.equal(await t.db.models.UserStrategy.count({ where: { userId: user.id } }), 1);
    assert.equal((await archived(user.id)).length, 8);
    for (const res of [await importStrategy(t, user.key, REFUSED_PY, 'encore.py'), await generate(user.key)]) assert.deepEqual([res.status, res.body.detail], [429, DAILY]);
    assert.equal((await archived(user.id)).length, 8, 'a refusal of the daily count runs and archives nothing');
  });

  it('failures racing past the daily count are answered but not archived; the next day, only the newest failures are kept', async () => {
    const user = await funded(t, 0);
    for (let i = 0; i < 7; i++) assert.equal((await importStrategy(t, user.key, REFUSED_PY, `bad${i}.py`)).status, 400);
    sandbox.hold();
    let answered = 0;
    const racing = Array.from({ length: 20 }, (_, i) => importStrategy(t, user.key, REFUSED_PY, `c${i}.py`).finally(() => answered++));
    await sandbox.releaseWhen(20, () => answered);
    const answers = await Promise.all(racing);
    for (const res of answers) assert.match(res.body.detail, /^Import interdit ligne 1/, `${res.status} ${res.text}`);
    const yesterday = await archived(user.id);
    assert.equal(yesterday.length, 8, 'exactly the daily count archived');
    assert.ok(yesterday.every((e) => e.path && existsSync(join(t.storageDir, e.path))));

    // A day later: the entries are dated back a day (the rows' created_at is the database's write
    // time, not the test clock's), so they are yesterday's for the count and the pruning.
    await t.db.sequelize.query(`UPDATE strategy_archive SET created_at = ${t.db.literal(new Date(t.clock.now().getTime() - 24 * 3600_000))} WHERE user_id = ${user.id}`);
    const tomorrow = await importStrategy(t, user.key, REFUSED_PY, 'demain.py');
    assert.equal(tomorrow.status, 400, tomorrow.text);
    const kept = await archived(user.id);
    const newestOld = yesterday.slice(-LIMITS.failedKept).map((e) => e.id);
    assert.deepEqual(kept.map((e) => e.id).slice(0, 2), newestOld, 'the newest failures of before today are kept');
    assert.equal(kept.length, LIMITS.failedKept + 1);
    for (const gone of yesterday.slice(0, -LIMITS.failedKept)) assert.equal(existsSync(join(t.storageDir, gone.path!)), false, `${gone.path} removed with its entry`);
  });

  it("the account's archive entries are read by an index (user, time), not by reading the whole archive", async () => {
    const indexes = (await t.db.sequelize.getQueryInterface().showIndex('strategy_archive')) as { name: string; fields: { attribute: string }[] }[];
    const index = indexes.find((i) => i.name === 'strategy_archive_user');
    assert.deepEqual(index?.fields.map((f) => f.attribute), ['user_id', 'created_at']);
  });
});
