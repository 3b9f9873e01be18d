// Every route of the API against hostile bodies, queries, path parameters and headers, anonymous,
// as a user and as an admin: no 5xx but a 503 with its sentence, every 4xx with {detail}
// (docs/security.md, "Request bodies"; the sweep is test/support/hostile-sweep.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { appRoutes, describeFailures, fieldNames, sweepRoutes } from './support/hostile-sweep.js';

const t = useTestApp({ library: true, config: { bodyLimitBytes: 8 * 1024 * 1024 } });

describe(`hostile input on every route (${TEST_DIALECT})`, () => {
  it('answers every route, every identity and every hostile body, path, query and header with something else than a 5xx', { timeout: 20 * 60_000 }, async () => {
    const routes = appRoutes(t.app);
    assert.ok(routes.length > 60, `routes read from the app: ${routes.length}`);
    const fields = fieldNames();
    for (const name of ['identifier', 'symbol', 'sl_pips', 'q', 'amount', 'new_password']) assert.ok(fields.includes(name), `field ${name} read from the sources`);
    const result = await sweepRoutes(t, routes, fields, TEST_DIALECT === 'sqlite' ? 'all' : 'database');
    assert.ok(result.requests > (TEST_DIALECT === 'sqlite' ? 5000 : 1666), `requests sent: ${result.requests}`);
    assert.equal(result.failures.length, 0, describeFailures(t, result));
  });
});
