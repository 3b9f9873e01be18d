// Sign-ups at once: each is answered 201 with its own account, and on MariaDB none of their
// transactions meets a deadlock. Each sign-up's verification token used to end the account's
// earlier tokens with an UPDATE that, on InnoDB, locked the index gap of the highest user ids even
// with no token to end: concurrent sign-ups deadlocked there (4 in 10 at 12 at once), were run
// again, and past 4 tries answered 500 (docs/server.md, "Sign-ups at once on MariaDB").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newPerson, useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';

const t = useTestApp();

describe(`sign-ups at once (${TEST_DIALECT})`, () => {
  it('12 at a time, 5 times: every one is a new account, and no transaction is run again after a deadlock', async () => {
    const retriesBefore = t.db.lockRetries.count;
    const ids = new Set<number>();
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(Array.from({ length: 12 }, () => t.request('POST', '/api/register', { json: newPerson('atonce') })));
      for (const answer of answers) {
        assert.equal(answer.status, 201, answer.text);
        const me = await t.request('GET', '/api/me', { key: answer.body.token });
        assert.equal(me.status, 200, me.text);
        ids.add(me.body.id);
      }
    }
    assert.equal(ids.size, 60);
    if (TEST_DIALECT !== 'sqlite') assert.equal(t.db.lockRetries.count, retriesBefore, 'transactions run again after a deadlock or a lock wait timeout');
  });
});
