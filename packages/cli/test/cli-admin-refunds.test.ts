// `bt admin metrics overview` and `breakdown sales_by_method` show refunds and net sales beside the
// (gross) sales, against the real server with real refunds: the server's own payment test app
// (local Stripe and PayPal, the real gateways), a Stripe sale of 20 € with 5 € refunded and a
// PayPal sale of 10 € refunded in full, each by its provider's notice (docs/admin.md "Overview").
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { buyWithPayPal, buyWithStripe, usePaymentApp } from '../../server/test/support/payments.js';
import { register } from '../../server/test/support/app.js';
import { makeAdmin } from '../../server/test/support/work.js';
import { bt } from './helpers.js';

const p = usePaymentApp();

describe('bt admin: refunds and net sales in the table views', () => {
  it('overview and sales_by_method list refunds_eur and net sales, as tables and in JSON', async () => {
    const admin = await makeAdmin(p.t);
    const run = (args: string[]) => bt(['admin', ...args], { env: { BT_API_URL: p.t.url, BT_API_KEY: admin.key } });

    const a = await register(p.t);
    const stripePack = await buyWithStripe(p, a, 'CREDIT_20');
    const intent = p.stripe.sessions.get(stripePack.session.id)!.payment_intent as string;
    const b = await register(p.t);
    const paypalPack = await buyWithPayPal(p, b, 'CREDIT_10');
    assert.equal(paypalPack.capture.status, 200);
    assert.equal((await p.stripe.refund(intent, { amount: 500 })).delivery!.status, 200);
    assert.equal((await p.paypal.refund(p.paypal.captureOf(paypalPack.order.id))).delivery!.status, 200);

    const overview = await run(['metrics', 'overview', '--range', 'all']);
    assert.equal(overview.code, 0, overview.stderr);
    // The rows in order: gross sales, refunds, net, then the rest.
    assert.match(overview.stdout, /\nkpi\s+value\ntotal_sales_eur\s+30\nrefunds_eur\s+15\nnet_sales_eur\s+15\ntotal_credits_bought\s+\d+\n/);
    const doc = JSON.parse((await run(['metrics', 'overview', '--range', 'all', '--json'])).stdout);
    assert.deepEqual([doc.total_sales_eur, doc.refunds_eur, doc.net_sales_eur], [30, 15, 15]);

    const methods = await run(['metrics', 'breakdown', 'sales_by_method', '--range', 'all']);
    assert.equal(methods.code, 0, methods.stderr);
    assert.match(methods.stdout, /\nmethod\s+count\s+total_eur\s+refunds_eur\s+net_eur\nstripe\s+1\s+20\s+5\s+15\npaypal\s+1\s+10\s+10\s+0\n/);
  });

  it('a server from before refunds were counted: the rows and columns show -, the command still works', async () => {
    const old = createServer((req, res) => {
      const range = { range: 'all', start: null, end: '2026-11-29' };
      const body = req.url?.startsWith('/api/admin/metrics/overview')
        ? { ...range, total_sales_eur: 30, total_credits_bought: 37, credits_offered: 0, backtests_count: 0, total_users: 2, new_users: 2, active_now: 0, deleted_users: 0, unsubscribed_users: 0, failed_payments: 0 }
        : { ...range, items: [{ method: 'stripe', count: 1, total_eur: 20 }] };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((r) => old.listen(0, '127.0.0.1', r));
    try {
      const env = { BT_API_URL: `http://127.0.0.1:${(old.address() as AddressInfo).port}`, BT_API_KEY: 'k' };
      const overview = await bt(['admin', 'metrics', 'overview', '--range', 'all'], { env });
      assert.equal(overview.code, 0, overview.stderr);
      assert.match(overview.stdout, /\ntotal_sales_eur\s+30\nrefunds_eur\s+-\nnet_sales_eur\s+-\ntotal_credits_bought\s+37\n/);
      const methods = await bt(['admin', 'metrics', 'breakdown', 'sales_by_method', '--range', 'all'], { env });
      assert.equal(methods.code, 0, methods.stderr);
      assert.match(methods.stdout, /\nmethod\s+count\s+total_eur\s+refunds_eur\s+net_eur\nstripe\s+1\s+20\s+-\s+-\n/);
    } finally {
      old.closeAllConnections();
      await new Promise((r) => old.close(r));
    }
  });
});
