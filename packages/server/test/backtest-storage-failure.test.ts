// A backtest that fails after its charge for a reason that is not the user's — the storage
// refusing the workbook (a full disk, a folder it cannot make) — in embedded mode, where the API
// runs the engine and stores the result itself (docs/server.md, "Backtests, results and credits":
// refunded, the row and any file removed, and the answer says « Aucun crédit n’a été débité. »).
// The queue answers the same failure with a 503 saying so (docs/queue.md, "Failures"); embedded
// mode answered 500 « Erreur serveur », which says nothing of the credits the client paid.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { JOB_MESSAGES } from '../src/jobs/messages.js';
import { useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { balance, funded, ledgerRows, runBacktest } from './support/work.js';

const t = useTestApp({ library: true });

describe(`a backtest whose workbook the storage refuses, in embedded mode (${TEST_DIALECT})`, () => {
  it('503 saying no credit was taken, refunded once, no run left', async () => {
    const user = await funded(t, 10);
    // The user's results folder is a file: the workbook's folder cannot be made under it.
    mkdirSync(join(t.storageDir, 'results'), { recursive: true });
    writeFileSync(join(t.storageDir, 'results', String(user.id)), 'not a folder');
    const res = await runBacktest(t, user.key);
    assert.equal(res.status, 503, res.text);
    assert.equal(res.body.detail, JOB_MESSAGES.failed);
    assert.equal(await balance(t, user.id), 10);
    const kinds = (await ledgerRows(t, user.id)).filter((r) => r.reason === 'backtest').map((r) => r.kind).sort();
    assert.deepEqual(kinds, ['refund', 'spend']);
    assert.equal(await t.db.models.BacktestRun.count({ where: { userId: user.id } }), 0);
    assert.ok(t.logs.some((l) => /workbook not stored|failed/.test(l)), `the cause is logged: ${t.logs.join('\n')}`);
  });
});
