// Two admins acting at once on the same thing (docs/admin.md "Two admins at once"): each answer is
// a success or the refusal a second try would get, and the facts are recorded once (one deletion
// event, one deletion counted for the address, one signup event per account after two rebuilds).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { register, useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { makeAdmin } from './support/work.js';

const t = useTestApp();

describe(`admin actions sent twice at once (${TEST_DIALECT})`, () => {
  it('three deletions of one user at once: each answers 200 or 404, and the deletion counts once', async () => {
    const [a, b] = [await makeAdmin(t), await makeAdmin(t)];
    for (let round = 0; round < 3; round++) {
      const user = await register(t);
      const answers = await Promise.all([a, b, a].map((admin) => t.request('POST', '/api/admin/delete_user', { key: admin.key, json: { user_id: user.id } })));
      // The ones that arrive while the first is deleting find the account still there and end as
      // it does (200); one that arrives after is 404: either way the account is gone once.
      for (const r of answers) {
        assert.ok(r.status === 200 || (r.status === 404 && r.body.detail === 'Utilisateur introuvable.'), `${r.status} ${r.text}`);
      }
      assert.ok(answers.some((r) => r.status === 200));
      assert.equal(await t.db.models.AppEvent.count({ where: { kind: 'deletion', userId: user.id } }), 1);
      const counter = await t.db.models.EmailRecreation.findByPk(user.email.toLowerCase());
      assert.equal(counter?.deletions, 1);
    }
  });

  it('two history resets and two statistics resets at once both answer 200', async () => {
    const [a, b] = [await makeAdmin(t), await makeAdmin(t)];
    const resets = await Promise.all([a, b].map((admin) => t.request('POST', '/api/admin/history/reset', { key: admin.key, json: { scope: 'all' } })));
    assert.deepEqual(resets.map((r) => r.status), [200, 200], resets.map((r) => r.text).join('\n'));
    const metrics = await Promise.all([a, b].map((admin) => t.request('POST', '/api/admin/metrics/reset', { key: admin.key, json: {} })));
    assert.deepEqual(metrics.map((r) => r.status), [200, 200], metrics.map((r) => r.text).join('\n'));
    const rebuilds = await Promise.all([a, b].map((admin) => t.request('POST', '/api/admin/metrics/rebuild_from_users', { key: admin.key, json: {} })));
    assert.deepEqual(rebuilds.map((r) => r.status), [200, 200], rebuilds.map((r) => r.text).join('\n'));
    // A rebuild records each fact once (INSERT … IGNORE): the two together added what one adds.
    const signups = await t.db.models.AppEvent.count({ where: { kind: 'signup' } });
    const users = await t.db.models.User.count();
    assert.ok(signups <= users, `${signups} signup events for ${users} accounts`);
  });
});
