// The payment routes swept again with the three gateways configured (local Stripe, PayPal and
// NOWPayments servers speaking their protocols), so that hostile input reaches the gateways' code
// and the webhooks' signature checks instead of the "not configured" 503 (test/support/hostile-sweep.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEST_DIALECT } from './support/db.js';
import { appRoutes, describeFailures, fieldNames, sweepRoutes } from './support/hostile-sweep.js';
import { usePaymentApp } from './support/payments.js';

const { t } = usePaymentApp();

describe(`hostile input on the payment routes, gateways configured (${TEST_DIALECT})`, () => {
  it('answers every payment and invoice route with something else than a 5xx, and charges nothing', { timeout: 10 * 60_000 }, async () => {
    const routes = appRoutes(t.app).filter((r) => /^\/api\/(payment|profile\/invoices)/.test(r.path));
    assert.ok(routes.length >= 10, `payment routes: ${routes.map((r) => `${r.method} ${r.path}`).join(', ')}`);
    const result = await sweepRoutes(t, routes, fieldNames(), TEST_DIALECT === 'sqlite' ? 'all' : 'database');
    assert.ok(result.requests > (TEST_DIALECT === 'sqlite' ? 500 : 166), `requests sent: ${result.requests}`);
    assert.equal(result.failures.length, 0, describeFailures(t, result));
    const bought = await t.db.models.CreditEntry.count({ where: { kind: 'grant', reason: ['purchase', 'subscription'] } });
    assert.equal(bought, 0, 'no hostile request bought credits or a subscription');
  });
});
