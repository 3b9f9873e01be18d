import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { balance, funded, ledgerRows, runBacktest } from './support/work.js';

// The last credit spent twice at once (docs/payments.md, docs/architecture.md §3): two different
// files, one credit; a file and a backtest. One is served, the other refused, never both.

const t = useTestApp({ library: true });

describe(`the last credit, spent at once (${TEST_DIALECT})`, () => {
  it('one credit, six different library files bought at once: one served, five refused 402, balance 0, one ledger row', async () => {
    const user = await funded(t, 1);
    const listed = await t.request('GET', '/api/list_csv_library?symbol=EURUSD');
    const paths = (listed.body.files as { path: string }[]).slice(0, 6).map((f) => f.path);
    assert.equal(new Set(paths).size, 6);
    const answers = await Promise.all(paths.map((path) => t.request('GET', `/api/download_csv_by_path/${path}`, { key: user.key })));
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 402, 402, 402, 402, 402], answers.map((a) => a.text.slice(0, 120)).join('\n'));
    assert.equal(await balance(t, user.id), 0);
    const spends = (await ledgerRows(t, user.id)).filter((r) => r.kind === 'spend');
    assert.equal(spends.length, 1);
    const owned = await t.db.models.UserCsv.count({ where: { userId: user.id } });
    assert.equal(owned, 1, 'a refused purchase owns nothing');
  });

  it('two credits, a backtest (2) and a download (1) at once: exactly one goes through, never a balance below zero', async () => {
    for (let i = 0; i < 3; i++) {
      const user = await funded(t, 2);
      const [run, download] = await Promise.all([
        runBacktest(t, user.key, { strategy: 'englobante_entry', timeframe: 'H1' }),
        t.request('GET', '/api/download_csv_by_path/EURUSD/H1/EURUSD_H1_2023-01.csv', { key: user.key }),
      ]);
      const statuses = [run.status, download.status];
      assert.ok((statuses[0] === 200 && statuses[1] === 402) || (statuses[0] === 402 && statuses[1] === 200), `${statuses} ${run.text.slice(0, 200)} ${download.text.slice(0, 100)}`);
      assert.equal(await balance(t, user.id), statuses[0] === 200 ? 0 : 1);
      assert.equal((await ledgerRows(t, user.id)).filter((r) => r.kind === 'spend').length, 1);
    }
  });
});
