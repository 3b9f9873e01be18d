// `bt admin payments attention` and `bt admin payments resolve` against the real server with a real
// situation: the server's own payment test app (the real gateways, local NOWPayments), a crypto
// invoice paid twice by NOWPayments' IPNs (docs/admin.md "Payments to settle").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buyWithCrypto, usePaymentApp } from '../../server/test/support/payments.js';
import { register } from '../../server/test/support/app.js';
import { makeAdmin } from '../../server/test/support/work.js';
import { bt } from './helpers.js';

const p = usePaymentApp();

describe('bt admin payments', () => {
  it('lists the open situations, closes one with a note (then it is listed only with --all), refuses a second close', async () => {
    const admin = await makeAdmin(p.t);
    const run = (args: string[]) => bt(['admin', 'payments', ...args], { env: { BT_API_URL: p.t.url, BT_API_KEY: admin.key } });
    const user = await register(p.t);
    const { order } = await buyWithCrypto(p, user, 'CREDIT_20');
    assert.equal((await p.nowpayments.notify(order.id, 'finished', { overrides: { payment_id: 424242 } })).status, 200);

    const list = await run(['attention']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^id\s+created \(UTC\)\s+kind\s+provider\s+provider ref\s+payment\s+user\s+amount\s+resolved \(UTC\)\n/);
    assert.match(list.stdout, new RegExp(`\\n\\s*\\d+\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+paid_twice\\s+crypto\\s+424242\\s+pay_\\S+\\s+${user.id}\\s+20\\.00 EUR\\s+open\\n`));
    assert.match(list.stdout, /paid_twice: Paiement reçu deux fois \(la seconde transaction n’a rien crédité\) : à rembourser\./);
    const doc = JSON.parse((await run(['attention', '--json'])).stdout);
    assert.equal(doc.command, 'admin payments attention');
    const item = doc.items.find((i: { provider_reference: string }) => i.provider_reference === '424242');
    assert.equal(item.kind, 'paid_twice');

    const resolved = await run(['resolve', String(item.id), '--note', 'remboursé sur NOWPayments']);
    assert.equal(resolved.code, 0, resolved.stderr);
    assert.equal(resolved.stdout, `payment situation ${item.id} (paid_twice) closed: remboursé sur NOWPayments\n`);
    const open = JSON.parse((await run(['attention', '--json'])).stdout);
    assert.ok(!open.items.some((i: { id: number }) => i.id === item.id));
    const all = JSON.parse((await run(['attention', '--all', '--json'])).stdout);
    const closed = all.items.find((i: { id: number }) => i.id === item.id);
    assert.deepEqual([closed.note, closed.resolved_by, typeof closed.resolved_at], ['remboursé sur NOWPayments', admin.id, 'string']);

    const twice = await run(['resolve', String(item.id)]);
    assert.equal(twice.code, 1);
    assert.match(twice.stderr, /409.*Cette situation de paiement est déjà close\./);
    const bad = await run(['resolve', 'abc']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /invalid <id>: "abc"/);
  });
});
