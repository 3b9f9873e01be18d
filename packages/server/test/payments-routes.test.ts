import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { StripeCheckout } from '../src/payments/stripe.js';
import { register, startTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { pdfText } from './support/pdf-text.js';
import { STRIPE_KEYS, buyWithPayPal, buyWithStripe, failedPayments, paymentRows, usePaymentApp } from './support/payments.js';
import { balance } from './support/work.js';

const p = usePaymentApp();
const { t } = p;

const AUTH_ROUTES: [string, string][] = [
  ['POST', '/api/payment/stripe/session'],
  ['POST', '/api/payment/paypal/create-order'],
  ['POST', '/api/payment/paypal/capture-order'],
  ['POST', '/api/payment/crypto/create-order'],
  ['GET', '/api/payment/status?payment=stripe&session_id=cs_x'],
  ['POST', '/api/payment/cancel'],
  ['GET', '/api/profile/invoices'],
  ['GET', '/api/profile/invoices/1'],
];

describe(`payment routes: guards, bad input, availability (${TEST_DIALECT})`, () => {
  it('every buyer route needs a key (with a trailing slash too); another letter case is no route at all', async () => {
    const user = await register(t);
    for (const [method, path] of AUTH_ROUTES) {
      const json = method === 'POST' ? { offer_id: 'CREDIT_5' } : undefined;
      const [bare, query = ''] = path.split('?');
      for (const written of [path, `${bare}/${query ? `?${query}` : ''}`]) {
        const res = await t.request(method, written, { json });
        assert.deepEqual([res.status, res.body?.detail], [401, 'Non authentifié'], `${method} ${written}`);
        assert.equal((await t.request(method, written, { key: 'not-a-key', json })).status, 401, `${method} ${written} with a bad key`);
      }
      for (const other of [path.replace('/api/payment/', '/API/Payment/').replace('/api/profile/', '/Api/PROFILE/'), path.toUpperCase()]) {
        for (const key of [undefined, user.key]) {
          const res = await t.request(method, other, { key, json });
          assert.deepEqual([res.status, res.body?.detail], [404, 'Ressource introuvable.'], `${method} ${other}`);
        }
      }
    }
    assert.equal((await paymentRows(t, user.id)).length, 0, 'nothing reached a payment');
  });

  it('refuses bad bodies, unknown offers and another user’s token with a 4xx, recorded as failed payments', async () => {
    const user = await register(t);
    const other = await register(t);
    const failedBefore = await failedPayments(t);
    for (const path of ['/api/payment/stripe/session', '/api/payment/paypal/create-order', '/api/payment/crypto/create-order']) {
      const missing = await t.request('POST', path, { key: user.key, json: {} });
      assert.deepEqual([missing.status, missing.body.detail], [400, 'Choisis une offre (offer_id).']);
      const unknown = await t.request('POST', path, { key: user.key, json: { offer_id: 'CREDIT_1000', user_token: user.key } });
      assert.deepEqual([unknown.status, unknown.body.detail], [400, 'Offre inconnue : « CREDIT_1000 » (CREDIT_5, CREDIT_10, CREDIT_20, CREDIT_50, SUB_9, SUB_25).']);
      const long = await t.request('POST', path, { key: user.key, json: { offer_id: 'X'.repeat(5000) } });
      assert.equal(long.status, 400);
      const theirs = await t.request('POST', path, { key: user.key, json: { offer_id: 'CREDIT_20', user_token: other.key } });
      assert.deepEqual([theirs.status, theirs.body.detail], [400, 'Jeton utilisateur invalide : il ne correspond pas à ta session.']);
      const malformed = await t.request('POST', path, { key: user.key, body: '{"offer_id":', headers: { 'content-type': 'application/json' } });
      assert.equal(malformed.status, 400);
      const amount = await t.request('POST', path, { key: user.key, json: { offer_id: 'CREDIT_20', amount: 1, price: 0.01 } });
      assert.equal(amount.status, 200, 'an amount sent by the client is ignored');
      assert.equal(amount.body.amount_eur, 20);
    }
    const rows = await paymentRows(t, user.id);
    assert.deepEqual(rows.filter((r) => r.status === 'refused').map((r) => r.failureKind).sort(), [...Array(9).fill('unknown_offer'), ...Array(3).fill('token_mismatch')].sort());
    assert.equal(await failedPayments(t), failedBefore + 12);
    assert.equal(await balance(t, user.id), 0);
    assert.ok(t.logs.some((l) => l.includes('refused stripe payment of user') && l.includes('Offre inconnue')));
  });

  it('callbacks: a body past 256 KiB is 413, a bad or missing signature 400, never a 500', async () => {
    const big = await t.request('POST', '/api/payment/stripe/webhook', { body: 'x'.repeat(300 * 1024), headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' } });
    assert.equal(big.status, 413);
    const event = JSON.stringify({ id: 'evt_1', type: 'checkout.session.completed', data: { object: {} } });
    for (const path of ['/api/payment/stripe/webhook', '/api/payment/stripe/webhook/']) {
      const res = await t.request('POST', path, { body: event, headers: { 'content-type': 'application/json', 'stripe-signature': p.stripe.signature(event, 'whsec_wrong') } });
      assert.deepEqual([res.status, res.body.detail], [400, 'Signature invalide.'], path);
    }
    const shouted = await t.request('POST', '/API/PAYMENT/STRIPE/WEBHOOK', { body: event, headers: { 'content-type': 'application/json', 'stripe-signature': p.stripe.signature(event) } });
    assert.equal(shouted.status, 404, 'another letter case is no route');
    const ipn = await t.request('POST', '/api/payment/crypto/ipn', { json: { payment_id: 1, payment_status: 'finished' } });
    assert.deepEqual([ipn.status, ipn.body.detail], [400, 'Signature invalide.']);
    const notJson = await t.request('POST', '/api/payment/crypto/ipn', { body: 'payment_id=1', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-nowpayments-sig': 'aa' } });
    assert.equal(notJson.status, 400);
  });

  it('status and cancel: the caller’s own payments only, return parameters checked', async () => {
    const user = await register(t);
    const other = await register(t);
    const order = await t.request('POST', '/api/payment/paypal/create-order', { key: user.key, json: { offer_id: 'CREDIT_5', user_token: user.key } });
    const mine = await t.request('GET', `/api/payment/status?payment=paypal&reference=${order.body.id}`, { key: user.key });
    assert.deepEqual([mine.status, mine.body.status, mine.body.offer_id, mine.body.label, mine.body.amount_eur], [200, 'created', 'CREDIT_5', 'Pack 5 crédits', 5]);
    const theirs = await t.request('GET', `/api/payment/status?payment=paypal&reference=${order.body.id}`, { key: other.key });
    assert.deepEqual([theirs.status, theirs.body.detail], [404, 'Paiement introuvable.']);
    const wrongMethod = await t.request('GET', `/api/payment/status?payment=stripe&reference=${order.body.reference}`, { key: user.key });
    assert.equal(wrongMethod.status, 404);
    for (const query of ['', '?payment=bitcoin&reference=x', '?payment=paypal', `?payment=paypal&reference=${'x'.repeat(300)}`]) {
      const bad = await t.request('GET', `/api/payment/status${query}`, { key: user.key });
      assert.equal(bad.status, 400, query);
    }
    const cancel = await t.request('POST', '/api/payment/cancel', { key: user.key, json: { payment: 'paypal', token: order.body.id } });
    assert.deepEqual([cancel.status, cancel.body.status, cancel.body.message], [200, 'cancelled', 'Paiement annulé.']);
  });

  it('a method without configuration is unavailable (503) and said so; a provider that does not answer is a 502, recorded', async () => {
    const methods = await t.request('GET', '/api/payment/methods');
    assert.deepEqual(methods.body.methods, {
      stripe: { available: true },
      paypal: { available: true },
      crypto: { available: true, min_price_eur: 10.01, default_currency: 'usdttrc20' },
    });
    // A second app on the same database: Stripe pointed at a port where nothing listens, no PayPal, no crypto.
    const bare = await startTestApp(t.db, { payments: { stripe: new StripeCheckout({ ...STRIPE_KEYS, apiBase: 'http://127.0.0.1:9' }), paypal: null, crypto: null } });
    try {
      const user = await register(bare);
      const offered = await bare.request('GET', '/api/payment/methods');
      assert.deepEqual([offered.body.methods.stripe.available, offered.body.methods.paypal.available, offered.body.methods.crypto.available], [true, false, false]);
      for (const [path, name] of [['/api/payment/paypal/create-order', 'PayPal'], ['/api/payment/paypal/capture-order', 'PayPal'], ['/api/payment/crypto/create-order', 'crypto']]) {
        const res = await bare.request('POST', path, { key: user.key, json: { offer_id: 'CREDIT_20', orderID: 'X' } });
        assert.deepEqual([res.status, res.body.detail], [503, `Le paiement par ${name} n'est pas configuré sur ce serveur.`]);
      }
      const ipn = await bare.request('POST', '/api/payment/crypto/ipn', { json: {} });
      assert.equal(ipn.status, 503);
      const down = await bare.request('POST', '/api/payment/stripe/session', { key: user.key, json: { offer_id: 'CREDIT_20' } });
      assert.deepEqual([down.status, down.body.detail], [502, 'Stripe ne répond pas : paiement non créé. Réessaie dans un instant.']);
      const [row] = await paymentRows(bare, user.id);
      assert.deepEqual([row.status, row.failureKind], ['failed', 'provider_error']);
    } finally {
      await bare.close();
    }
  });
});

describe(`invoices (${TEST_DIALECT})`, () => {
  it('numbers a PDF per purchase with seller, buyer, offer, VAT, method and reference; only its owner downloads it', async () => {
    const user = await register(t);
    const other = await register(t);
    await buyWithStripe(p, user, 'CREDIT_10');
    const list = await t.request('GET', '/api/profile/invoices', { key: user.key });
    assert.equal(list.status, 200);
    const [invoice] = list.body.items;
    assert.match(invoice.label, /^BT-\d{6}$/);
    const res = await fetch(`${t.url}${invoice.url}`, { headers: { 'x-api-key': user.key } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/pdf');
    assert.equal(res.headers.get('content-disposition'), `attachment; filename="facture-${invoice.label}.pdf"`);
    const pdf = new Uint8Array(await res.arrayBuffer());
    assert.equal(Buffer.from(pdf.subarray(0, 5)).toString(), '%PDF-');
    const text = pdfText(pdf);
    const [row] = await paymentRows(t, user.id);
    for (const expected of [
      `Facture ${invoice.label}`,
      'Date : 15/01/2026',
      'bt SAS',
      '12 rue des Bougies',
      'SIRET : 123 456 789 00012',
      'TVA : FR00123456789',
      `Camille ${user.last_name}`,
      user.email,
      'Pack 12 crédits : 12 crédits (offre CREDIT_10)',
      'Total HT : 8,33 €',
      'TVA (20 %) : 1,67 €',
      'Total TTC : 10,00 €',
      'Moyen de paiement : Carte bancaire (Stripe)',
      `Référence du paiement : ${row.transactionId}`,
      `Référence bt : ${row.reference}`,
    ]) {
      assert.ok(text.includes(expected), `${expected} in:\n${text}`);
    }

    // The download link form (token in the query); the .pdf suffix is accepted.
    const link = await fetch(`${t.url}${invoice.url}.pdf?token=${user.key}`);
    assert.equal(link.status, 200);
    const listByQuery = await fetch(`${t.url}/api/profile/invoices?token=${user.key}`);
    assert.equal(listByQuery.status, 401, 'a key in the address counts on download links only');
    for (const path of [invoice.url, '/api/profile/invoices/abc', '/api/profile/invoices/99999999', '/api/profile/invoices/..%2F..%2Fbt.sqlite']) {
      const denied = await t.request('GET', path, { key: path === invoice.url ? other.key : user.key });
      assert.deepEqual([denied.status, denied.body.detail], [404, 'Facture introuvable.'], path);
    }

    // A missing file is drawn again from the frozen content: the same document.
    const stored = (await t.db.models.Invoice.findOne({ where: { number: invoice.number } }))!;
    await rm(join(t.storageDir, stored.path));
    const again = await fetch(`${t.url}${invoice.url}`, { headers: { 'x-api-key': user.key } });
    assert.deepEqual(new Uint8Array(await again.arrayBuffer()), pdf);

    const me = (await t.request('GET', '/api/me', { key: user.key })).body;
    assert.deepEqual(me.purchase_history[0].invoice, invoice);
  });

  it('numbers stay unique and without gaps when payments complete at once', async () => {
    const users = await Promise.all(Array.from({ length: 6 }, () => register(t)));
    const sessions = [];
    for (const user of users) {
      for (const offer of ['CREDIT_5', 'CREDIT_20']) {
        const res = await t.request('POST', '/api/payment/stripe/session', { key: user.key, json: { offer_id: offer } });
        sessions.push(res.body.id as string);
      }
    }
    const orders = await Promise.all(users.slice(0, 3).map((u) => t.request('POST', '/api/payment/paypal/create-order', { key: u.key, json: { offer_id: 'CREDIT_10' } })));
    for (const order of orders) p.paypal.approve(order.body.id);
    await Promise.all([
      ...sessions.map((id) => p.stripe.complete(id)),
      ...orders.map((order, i) => t.request('POST', '/api/payment/paypal/capture-order', { key: users[i].key, json: { orderID: order.body.id } })),
      buyWithPayPal(p, users[5], 'CREDIT_50'),
    ]);
    const numbers = (await t.db.models.Invoice.findAll({ attributes: ['number'], order: [['number', 'ASC']] })).map((i) => i.number);
    assert.deepEqual(numbers, numbers.map((_, i) => i + 1), 'every invoice of this database, 1 to N');
    assert.equal(await t.db.models.Invoice.count(), await t.db.models.Payment.count({ where: { status: 'paid' } }));
    const info = await t.app.services.invoices.adminInfo();
    assert.equal(info.count, numbers.length);
    assert.ok(info.bytes > numbers.length * 1000);
    const files = await t.app.services.invoices.adminList({ limit: 3 });
    assert.deepEqual(files.map((f) => f.number), [numbers.at(-1), numbers.at(-2), numbers.at(-3)]);
    assert.match(files[0].rel, /^invoices\/2026\/BT-\d{6}\.pdf$/);
  });
});
