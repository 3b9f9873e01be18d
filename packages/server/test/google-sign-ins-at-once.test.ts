// "Sign in with Google" clicked by several people at once: each start is answered with its own
// redirect to the provider and its state stored, and on MariaDB none of their transactions meets a
// deadlock. A start deleted the expired states by `expires_at`, which has no index: InnoDB locked
// the whole table up to the gap past its last row, even with no row to delete, so two starts on an
// empty table (as the minute sweep leaves it) each held that gap, then each waited for the other's
// INSERT (47 to 58 of 80 starts run again, 10 at once; past 4 tries a 503; docs/server.md, "Sign-ups
// at once on MariaDB").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OpenIdConnectProvider } from '../src/oidc/provider.js';
import { expireOidcStates } from '../src/retention/technical.js';
import { useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { startOidcProvider, type TestProvider } from './support/oidc-provider.js';

let provider: TestProvider;
const t = useTestApp(
  async () => {
    provider = await startOidcProvider();
    return { providers: [new OpenIdConnectProvider({ id: 'google', label: 'Google', issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret })] };
  },
  { stopped: async () => provider?.close() },
);

/** 10 starts at once: each a 302 to the provider with a state of its own. */
async function startsAtOnce(): Promise<void> {
  const answers = await Promise.all(Array.from({ length: 10 }, () => fetch(`${t.url}/api/auth/google/login`, { redirect: 'manual' })));
  const states = new Set<string>();
  for (const answer of answers) {
    assert.equal(answer.status, 302, await answer.text());
    const location = new URL(answer.headers.get('location')!);
    assert.equal(location.origin, provider.issuer);
    states.add(location.searchParams.get('state')!);
  }
  assert.equal(states.size, 10);
}

describe(`Google sign-ins at once (${TEST_DIALECT})`, () => {
  it('10 starts at a time on an empty table of states, 8 times: each stored, and no transaction is run again after a deadlock', async () => {
    const retriesBefore = t.db.lockRetries.count;
    for (let round = 0; round < 8; round++) {
      // The minute sweep has removed the states past their 10 minutes, and InnoDB has purged the
      // rows it deleted (a deleted row still there is locked by the DELETE, which then serialises
      // the starts): an empty table, which TRUNCATE gives at once.
      t.clock.advance(11 * 60_000);
      assert.equal(await expireOidcStates(t.db, t.clock, 1000), round === 0 ? 0 : 10);
      await t.db.models.OidcState.destroy({ where: {}, truncate: true });
      await startsAtOnce();
      assert.equal(await t.db.models.OidcState.count(), 10);
    }
    if (TEST_DIALECT !== 'sqlite') assert.equal(t.db.lockRetries.count, retriesBefore, 'transactions run again after a deadlock or a lock wait timeout');
  });

  it('10 starts at a time with expired states left, 4 times: the expired ones deleted once, the new ones stored', async () => {
    const retriesBefore = t.db.lockRetries.count;
    for (let round = 0; round < 4; round++) {
      t.clock.advance(11 * 60_000);
      await startsAtOnce();
      assert.equal(await t.db.models.OidcState.count(), 10, 'the expired ones gone, these 10 there');
    }
    if (TEST_DIALECT !== 'sqlite') assert.equal(t.db.lockRetries.count, retriesBefore, 'transactions run again after a deadlock or a lock wait timeout');
  });
});
