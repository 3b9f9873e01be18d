import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { BREAKOUT_PY, funded, importStrategy } from './support/work.js';

/**
 * Personal strategies, the strategy archive and the CSVs a user owns are dated by the app's clock (src/clock), as the
 * accounts are: the daily count of imports (docs/strategies-python.md, "Limits per account") reads
 * these dates against that clock. Sequelize's own timestamp wrote the real time over the clock's.
 */
const t = useTestApp({ library: true, config: { strategyQuota: { maxPerUser: 10, dailyAttempts: 2, failedKept: 5 } } });

const REFUSED_PY = 'import os\ndef detect_x(candles, params):\n    return []\n';

describe(`strategy rows dated by the app's clock (${TEST_DIALECT})`, () => {
  it('created_at of user_strategies and strategy_archive, and a rename\'s updated_at, are the clock\'s', async () => {
    const user = await funded(t, 0);
    const created = t.clock.now();
    const imported = await importStrategy(t, user.key, BREAKOUT_PY, 'cassure.py');
    assert.equal(imported.status, 201, imported.text);
    assert.equal((await importStrategy(t, user.key, REFUSED_PY, 'refus.py')).status, 400);
    const [row] = await t.db.models.UserStrategy.findAll({ where: { userId: user.id } });
    assert.equal(row.createdAt.toISOString(), created.toISOString());
    assert.equal(row.updatedAt.toISOString(), created.toISOString());
    const archived = await t.db.models.ArchivedStrategy.findAll({ where: { userId: user.id }, order: [['id', 'ASC']] });
    assert.deepEqual(archived.map((a) => [a.status, a.createdAt.toISOString()]), [['ok', created.toISOString()], ['failed', created.toISOString()]]);
    const listed = await t.request('GET', '/api/user/strategies', { key: user.key });
    assert.equal(listed.body.items[0].created_at, Math.floor(created.getTime() / 1000));

    t.clock.advance(3600_000);
    const renamed = await t.request('PATCH', `/api/user/strategies/${row.id}/rename`, { key: user.key, json: { display_name: 'Autre nom' } });
    assert.equal(renamed.status, 200, renamed.text);
    await row.reload();
    assert.equal(row.updatedAt.toISOString(), t.clock.now().toISOString());
    assert.equal(row.createdAt.toISOString(), created.toISOString());
  });

  it('a CSV bought or extracted is dated by the clock (created_at of user_csvs, the dates « Mes CSV » shows)', async () => {
    const user = await funded(t, 5);
    t.clock.advance(7 * 3600_000);
    const at = t.clock.now().toISOString();
    assert.equal((await t.request('GET', '/api/download_csv_by_path/EURUSD/H1/EURUSD_H1_2023-01.csv', { key: user.key })).status, 200);
    assert.equal((await t.request('GET', '/api/extract_to_output_live?symbol=EU50&timeframe=M5&start_date=2006-01-02&end_date=2006-01-06', { key: user.key })).status, 200);
    const rows = await t.db.models.UserCsv.findAll({ where: { userId: user.id }, order: [['id', 'ASC']] });
    assert.deepEqual(rows.map((r) => [r.kind, r.createdAt.toISOString(), r.updatedAt.toISOString()]), [['library', at, at], ['extraction', at, at]]);
    const mine = await t.request('GET', '/api/user/csvs', { key: user.key });
    assert.ok(mine.body.items.every((f: { created_at: string }) => f.created_at === at), mine.text);
  });

  it('the daily count of imports starts again when the clock reaches the next UTC day', async () => {
    const user = await funded(t, 0);
    for (let i = 0; i < 2; i++) assert.equal((await importStrategy(t, user.key, REFUSED_PY, `refus${i}.py`)).status, 400);
    const refused = await importStrategy(t, user.key, BREAKOUT_PY, 'cassure.py');
    assert.equal(refused.status, 429, refused.text);
    t.clock.advance(24 * 3600_000);
    const next = await importStrategy(t, user.key, BREAKOUT_PY, 'cassure.py');
    assert.equal(next.status, 201, next.text);
  });
});
