import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpError, NetworkError, retryAfterMs } from '../src/api/errors.js';
import { TOAST_LIMIT, TOAST_MS, ToastStore } from '../src/components/toasts.js';
import { OFFER_NOTES, offerCards, readMethods } from '../src/features/payments/offers.js';
import {
  LAST_OFFER_STORAGE,
  PAYMENT_MESSAGES,
  PAYPAL_PROCESSED_STORAGE,
  PURCHASES_STORAGE,
  captureErrorMessage,
  claimPurchaseSuccess,
  paymentErrorMessage,
  purchaseSuccessEvent,
  readPaymentReturn,
  readSuccess,
  rememberConfirmedPayment,
  successPath,
} from '../src/features/payments/payments.js';
import { POLL_ATTEMPTS, POLL_BUDGET_MS, POLL_MS, handlePaymentReturn, type ReturnDeps } from '../src/features/payments/returns.js';
import { historyRows } from '../src/features/profile/profile.js';
import { creditNoteRows, creditNoteText } from '../src/features/profile/creditNotes.js';
import { makePaymentCalls } from '../src/api/calls.js';
import type { ApiClient } from '../src/api/client.js';

const ALL = { stripe: true, paypal: true, crypto: true };
const card = (cards: ReturnType<typeof offerCards>, id: string) => cards.find((c) => c.offer.id === id)!;

describe('pricing cards', () => {
  it('prices and credits come from the offers: the subscriber bonus, the crypto minimum and the CREDIT_10 exception', () => {
    const free = offerCards('stripe', 'free', ALL);
    assert.deepEqual(free.map((c) => [c.offer.id, c.priceCents, c.credits, c.unavailable]), [
      ['CREDIT_5', 500, 5, null],
      ['CREDIT_10', 1000, 12, null],
      ['CREDIT_20', 2000, 25, null],
      ['CREDIT_50', 5000, 75, null],
      ['SUB_9', 900, 10, null],
      ['SUB_25', 2500, 30, null],
    ]);
    const subscriber = offerCards('stripe', 'SUB_9', ALL, true);
    assert.deepEqual(['CREDIT_5', 'CREDIT_50'].map((id) => [card(subscriber, id).credits, card(subscriber, id).bonus]), [[6, 1], [83, 8]]);
    assert.equal(card(subscriber, 'SUB_9').unavailable, OFFER_NOTES.current, 'a renewing plan is not bought again');
    assert.equal(card(subscriber, 'SUB_25').planState, 'upgrade');
    assert.equal(card(offerCards('paypal', 'SUB_9', ALL, false), 'SUB_9').unavailable, null, 'a period paid once can be extended');
    assert.equal(card(offerCards('stripe', 'SUB_25', ALL), 'SUB_9').unavailable, OFFER_NOTES.lower);

    const crypto = offerCards('crypto', 'free', ALL);
    assert.match(card(crypto, 'CREDIT_5').unavailable!, /^Crypto indisponible sous 10,01\s€$/);
    assert.equal(card(crypto, 'SUB_9').unavailable, OFFER_NOTES.cryptoMinimum);
    assert.deepEqual([card(crypto, 'CREDIT_10').priceCents, card(crypto, 'CREDIT_10').credits, card(crypto, 'CREDIT_10').cryptoExtra], [1050, 13, 1]);
    const cryptoSubscriber = card(offerCards('crypto', 'SUB_25', ALL), 'CREDIT_10');
    assert.deepEqual([cryptoSubscriber.credits, cryptoSubscriber.bonus, cryptoSubscriber.cryptoExtra], [16, 2, 2]);
  });

  it('a method the server does not offer is unavailable on every card', () => {
    const methods = readMethods({ methods: { stripe: { available: true }, paypal: { available: false } } });
    assert.deepEqual(methods, { stripe: true, paypal: false, crypto: false });
    assert.deepEqual(readMethods(null), { stripe: false, paypal: false, crypto: false });
    assert.ok(offerCards('paypal', 'free', methods).every((c) => c.unavailable === 'Moyen de paiement indisponible sur ce serveur'));
  });
});

describe('payment return and success parameters', () => {
  it('reads payment, status, token and session_id, then drops them (and PayPal’s PayerID) from the address', () => {
    const paypal = readPaymentReturn('?payment=paypal&status=success&token=5O190127TN364715T&PayerID=ABC&keep=1');
    assert.deepEqual(paypal.ret, { payment: 'paypal', status: 'success', token: '5O190127TN364715T', sessionId: null });
    assert.deepEqual([paypal.search, paypal.changed], ['?keep=1', true]);
    const stripe = readPaymentReturn('?payment=stripe&status=success&session_id=cs_test_1');
    assert.deepEqual([stripe.ret?.sessionId, stripe.search], ['cs_test_1', '']);
    assert.deepEqual(readPaymentReturn('?payment=bank&status=success'), { ret: null, search: '', changed: true });
    assert.deepEqual(readPaymentReturn('?tab=1'), { ret: null, search: '?tab=1', changed: false });
  });

  it('/success shows the offer, the price in euros, the method and the credits; the event carries them', () => {
    const path = successPath({ offerId: 'CREDIT_10', method: 'crypto', credits: 13, priceEur: 10.5 });
    assert.equal(path, '/success?offer=CREDIT_10&method=crypto&credits=13&price=10.5');
    const view = readSuccess(path.slice('/success'.length));
    assert.deepEqual([view.offerLabel, view.methodLabel, view.credits, view.price.replace(/\s/g, ' ')], ['Pack 12 crédits', 'Crypto-monnaie', 13, '10,50 €']);
    assert.deepEqual(purchaseSuccessEvent(view), { offer_id: 'CREDIT_10', method: 'crypto', price_eur: 10.5, credits: 13 });
    const empty = readSuccess('');
    assert.deepEqual([empty.offerLabel, empty.price, empty.credits], ['—', '—', null]);
  });

  it('purchase_success is recorded once per payment confirmed in this tab, and only with its reference', async () => {
    // The Stripe return confirms the payment; the dialog's link carries its reference.
    const { deps: d } = deps({ status: async () => ({ status: 'paid', offer_id: 'CREDIT_20', credits: 25, amount_eur: 20, invoice: null }) });
    const outcome = await handlePaymentReturn({ payment: 'stripe', status: 'success', token: null, sessionId: 'cs_live_7' }, d);
    assert.ok(outcome.kind === 'paid');
    const path = successPath(outcome.purchase);
    assert.equal(path, '/success?offer=CREDIT_20&method=stripe&credits=25&price=20&ref=cs_live_7');
    const search = path.slice('/success'.length);
    assert.equal(readSuccess(search).offerId, 'CREDIT_20', 'the page still reads offer, method, credits and price');

    const tab = memoryStorage();
    // Not confirmed in this tab yet (a copied or typed address): nothing recorded.
    assert.equal(claimPurchaseSuccess(tab, search), false);
    rememberConfirmedPayment(tab, outcome.purchase.reference);
    assert.equal(claimPurchaseSuccess(tab, search), true, 'the first visit records it');
    assert.equal(claimPurchaseSuccess(tab, search), false, 'a reload does not');
    rememberConfirmedPayment(tab, 'cs_live_7');
    assert.equal(claimPurchaseSuccess(tab, search), false, 'confirming it again does not re-arm it');
    // No reference, an empty one, or one never confirmed: nothing.
    rememberConfirmedPayment(tab, '  ');
    for (const bare of ['', '?offer=CREDIT_20&method=stripe&credits=25&price=20', '?ref=', '?ref=%20', '?ref=cs_other']) assert.equal(claimPurchaseSuccess(tab, bare), false, bare);
    // A second payment in the same tab is recorded on its own.
    rememberConfirmedPayment(tab, 'ORDER9');
    assert.equal(claimPurchaseSuccess(tab, '?offer=CREDIT_10&method=paypal&credits=12&price=10&ref=ORDER9'), true);
    assert.deepEqual(JSON.parse(tab.getItem(PURCHASES_STORAGE)!), { cs_live_7: 'recorded', ORDER9: 'recorded' });
    // Unreadable storage is an empty record, not a crash.
    const broken = memoryStorage({ [PURCHASES_STORAGE]: '{oops' });
    assert.equal(claimPurchaseSuccess(broken, '?ref=cs_live_7'), false);
    // A purchase without a reference keeps the spec's four parameters.
    assert.equal(successPath({ offerId: 'CREDIT_10', method: 'crypto', credits: 13, priceEur: 10.5 }), '/success?offer=CREDIT_10&method=crypto&credits=13&price=10.5');
  });

  it('messages: not signed in, the server’s detail, a failed capture', () => {
    assert.equal(paymentErrorMessage(new HttpError(401, 'Non authentifié', {})), 'Inscrivez-vous pour acheter des crédits');
    assert.equal(paymentErrorMessage(new HttpError(400, 'Offre inconnue : « X ».', {})), 'Offre inconnue : « X ».');
    // A card subscription refused over a period already paid: the server's sentence, its date included, under the plans.
    const prepaid = 'Ton abonnement Starter est déjà payé jusqu’au 29/01/2027 : un abonnement par carte commencerait aujourd’hui et les jours déjà payés seraient perdus. Souscris-le par carte à partir du 29/01/2027, ou prolonge-le de 30 jours par un paiement sans renouvellement automatique.';
    assert.equal(paymentErrorMessage(new HttpError(409, prepaid, { detail: prepaid })), prepaid);
    assert.equal(paymentErrorMessage(new Error('network')), 'Erreur serveur');
    assert.equal(captureErrorMessage(new HttpError(502, undefined, {})), 'Capture échouée.');
    assert.equal(captureErrorMessage(new HttpError(400, 'Capture échouée : PayPal a refusé le paiement (INSTRUMENT_DECLINED).', {})), 'Capture échouée : PayPal a refusé le paiement (INSTRUMENT_DECLINED).');
    assert.equal(captureErrorMessage(new HttpError(400, 'Paiement introuvable.', {})), 'Capture échouée. Paiement introuvable.');
  });
});

function memoryStorage(entries: Record<string, string> = {}) {
  const map = new Map(Object.entries(entries));
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k), map };
}

function deps(overrides: Partial<ReturnDeps> & { storage?: ReturnType<typeof memoryStorage> } = {}) {
  const calls: string[] = [];
  const base: ReturnDeps = {
    capture: async (orderId, offerId) => {
      calls.push(`capture ${orderId} ${offerId}`);
      return { status: 'success', message: 'Paiement confirmé : 12 crédits ajoutés.', offer_id: 'CREDIT_10', credits_added: 12, credits: 40, amount_eur: 10, invoice: { number: 3, label: 'BT-000003', url: '/api/profile/invoices/3' } };
    },
    status: async (payment, reference) => {
      calls.push(`status ${payment} ${reference}`);
      return { status: 'paid', offer_id: 'CREDIT_20', credits: 25, amount_eur: 20, message: 'Paiement confirmé : 25 crédits ajoutés.', invoice: null };
    },
    cancel: async (payment, reference) => {
      calls.push(`cancel ${payment} ${reference}`);
      return {};
    },
    storage: memoryStorage(),
    wait: async () => {},
    live: () => true,
  };
  return { deps: { ...base, ...overrides }, calls };
}

describe('handling a payment return', () => {
  it('PayPal: captures the order once with the stored offer, then only asks its status', async () => {
    const storage = memoryStorage({ [LAST_OFFER_STORAGE]: 'CREDIT_10' });
    const { deps: d, calls } = deps({ storage });
    const ret = { payment: 'paypal' as const, status: 'success', token: 'ORDER1', sessionId: null };
    const first = await handlePaymentReturn(ret, d);
    assert.equal(first.kind, 'paid');
    assert.deepEqual(first.kind === 'paid' && [first.purchase, first.invoicePath], [{ offerId: 'CREDIT_10', method: 'paypal', credits: 12, priceEur: 10, reference: 'ORDER1' }, '/api/profile/invoices/3']);
    assert.equal(storage.getItem(PAYPAL_PROCESSED_STORAGE), 'ORDER1');
    assert.equal(storage.getItem(LAST_OFFER_STORAGE), null);
    await handlePaymentReturn(ret, d);
    assert.deepEqual(calls, ['capture ORDER1 CREDIT_10', 'status paypal ORDER1']);
    const missing = await handlePaymentReturn({ ...ret, token: null }, d);
    assert.deepEqual(missing, { kind: 'error', message: PAYMENT_MESSAGES.paypalTokenMissing });
  });

  it('PayPal: a capture PayPal holds (pending) says the server\'s sentence, not a failed capture, and is not captured again', async () => {
    const storage = memoryStorage({ [LAST_OFFER_STORAGE]: 'CREDIT_10' });
    const message = 'Paiement en attente chez PayPal : les crédits sont ajoutés dès que PayPal le confirme.';
    const { deps: d, calls } = deps({ storage, capture: async (orderId, offerId) => (calls.push(`capture ${orderId} ${offerId}`), { status: 'pending', message, credits_added: 0 }) });
    const ret = { payment: 'paypal' as const, status: 'success', token: 'ORDER3', sessionId: null };
    assert.deepEqual(await handlePaymentReturn(ret, d), { kind: 'pending', message });
    assert.equal(storage.getItem(PAYPAL_PROCESSED_STORAGE), 'ORDER3');
    const { deps: bare } = deps({ storage: memoryStorage(), capture: async () => ({ status: 'pending' }) });
    assert.deepEqual(await handlePaymentReturn({ ...ret, token: 'ORDER4' }, bare), { kind: 'pending', message: PAYMENT_MESSAGES.pending });
    assert.deepEqual(calls, ['capture ORDER3 CREDIT_10']);
  });

  it('PayPal: a refused capture says so and may be tried again', async () => {
    const storage = memoryStorage();
    const { deps: d } = deps({ storage, capture: async () => Promise.reject(new HttpError(400, 'Capture échouée : PayPal a refusé le paiement (INSTRUMENT_DECLINED).', {})) });
    const outcome = await handlePaymentReturn({ payment: 'paypal', status: 'success', token: 'ORDER2', sessionId: null }, d);
    assert.deepEqual(outcome, { kind: 'error', message: 'Capture échouée : PayPal a refusé le paiement (INSTRUMENT_DECLINED).' });
    assert.equal(storage.getItem(PAYPAL_PROCESSED_STORAGE), null);
  });

  it('Stripe and crypto: the status is asked until the webhook has credited, or pending after 30 s', async () => {
    let answers = 0;
    const { deps: d, calls } = deps({ status: async () => (++answers < 3 ? { status: 'created' } : { status: 'paid', offer_id: 'SUB_9', credits: 10, amount_eur: 9, invoice: null }) });
    const paid = await handlePaymentReturn({ payment: 'stripe', status: 'success', token: null, sessionId: 'cs_1' }, d);
    assert.equal(paid.kind, 'paid');
    assert.equal(answers, 3);
    assert.deepEqual(calls, []);
    let asked = 0;
    const { deps: slow } = deps({ status: async () => (asked++, { status: 'created' }) });
    assert.deepEqual(await handlePaymentReturn({ payment: 'crypto', status: 'success', token: 'pay_1', sessionId: null }, slow), { kind: 'pending', message: PAYMENT_MESSAGES.pending });
    assert.equal(asked, POLL_ATTEMPTS);
    const { deps: refused } = deps({ status: async () => ({ status: 'refused', message: 'Montant reçu (1,00 €) différent du prix de l’offre (10,00 €) : paiement refusé.' }) });
    assert.equal((await handlePaymentReturn({ payment: 'crypto', status: 'success', token: 'pay_2', sessionId: null }, refused)).kind, 'error');
  });

  it('polling: a status call that gets no answer says \'Erreur réseau.\', not \'Erreur serveur\'', async () => {
    const { deps: d } = deps({
      status: async () => {
        throw new NetworkError(new TypeError('Failed to fetch'));
      },
    });
    assert.deepEqual(await handlePaymentReturn({ payment: 'stripe', status: 'success', token: null, sessionId: 'cs_net' }, d), { kind: 'error', message: 'Erreur réseau.' });
    assert.equal(paymentErrorMessage(new NetworkError()), 'Erreur réseau.');
    assert.equal(paymentErrorMessage(new HttpError(500, undefined, undefined)), PAYMENT_MESSAGES.serverError);
  });

  it('polling: a 429 waits its Retry-After and asks again, within the 30 s limit', async () => {
    let asked = 0;
    const waits: number[] = [];
    const { deps: d } = deps({
      wait: async (ms) => void waits.push(ms),
      status: async () => {
        asked++;
        if (asked === 2) throw new HttpError(429, 'Trop de requêtes. Réessaie dans 4 s.', undefined, 'Too Many Requests', '4');
        if (asked === 3) throw new HttpError(429, undefined, undefined, '', null);
        return asked < 5 ? { status: 'created' } : { status: 'paid', offer_id: 'SUB_9', credits: 10, amount_eur: 9, invoice: null };
      },
    });
    const paid = await handlePaymentReturn({ payment: 'stripe', status: 'success', token: null, sessionId: 'cs_429' }, d);
    assert.equal(paid.kind, 'paid', 'the 429s did not stop the polling');
    assert.equal(asked, 5);
    // After the 429 with 'Retry-After: 4': 4 s; without the header: the usual step.
    assert.deepEqual(waits, [POLL_MS, 4000, POLL_MS, POLL_MS]);

    // Always 429: the waits add up to no more than the limit, then the payment is pending.
    const slowWaits: number[] = [];
    let refused = 0;
    const { deps: busy } = deps({
      wait: async (ms) => void slowWaits.push(ms),
      status: async () => {
        refused++;
        throw new HttpError(429, undefined, undefined, '', '7');
      },
    });
    assert.deepEqual(await handlePaymentReturn({ payment: 'crypto', status: 'success', token: 'pay_429', sessionId: null }, busy), { kind: 'pending', message: PAYMENT_MESSAGES.pending });
    assert.ok(slowWaits.reduce((a, b) => a + b, 0) <= POLL_BUDGET_MS);
    assert.deepEqual(slowWaits, [7000, 7000, 7000, 7000]);
    assert.equal(refused, 5);
  });

  it('reads Retry-After in seconds or as a date', () => {
    assert.equal(retryAfterMs('5'), 5000);
    assert.equal(retryAfterMs(' 0 '), 0);
    assert.equal(retryAfterMs(null), null);
    assert.equal(retryAfterMs('soon'), null);
    assert.equal(retryAfterMs('Sun, 29 Nov 2026 08:00:10 GMT', Date.parse('2026-11-29T08:00:00Z')), 10000);
    assert.equal(retryAfterMs('Sun, 29 Nov 2026 08:00:10 GMT', Date.parse('2026-11-29T09:00:00Z')), 0);
  });

  it('a cancel link records the cancellation (PayPal, crypto) and says so', async () => {
    const { deps: d, calls } = deps();
    assert.deepEqual(await handlePaymentReturn({ payment: 'paypal', status: 'cancel', token: 'ORDER3', sessionId: null }, d), { kind: 'cancelled', message: 'Paiement annulé.' });
    await handlePaymentReturn({ payment: 'stripe', status: 'cancel', token: null, sessionId: null }, d);
    assert.deepEqual(calls, ['cancel paypal ORDER3']);
  });
});

describe('toasts', () => {
  it('each stays 3 s (the product’s 2.5 to 3.5 s), at most three at once, and can be closed', () => {
    assert.ok(TOAST_MS >= 2500 && TOAST_MS <= 3500);
    const timers = new Map<number, { fn: () => void; ms: number }>();
    let next = 0;
    const store = new ToastStore({ setTimeout: (fn, ms) => (timers.set(++next, { fn, ms }), next), clearTimeout: (h) => void timers.delete(h as number) });
    let changes = 0;
    store.subscribe(() => changes++);
    const first = store.show('Profil mis à jour.');
    assert.deepEqual([...timers.values()].map((t) => t.ms), [TOAST_MS]);
    for (let i = 0; i < TOAST_LIMIT; i++) store.show(`n${i}`, 'info');
    assert.deepEqual(store.getSnapshot().map((t) => t.text), ['n0', 'n1', 'n2']);
    assert.equal(timers.size, TOAST_LIMIT, 'the oldest left with its timer');
    assert.ok(!store.getSnapshot().some((t) => t.id === first));
    [...timers.values()][0].fn();
    assert.deepEqual(store.getSnapshot().map((t) => t.text), ['n1', 'n2']);
    store.dismiss(store.getSnapshot()[0].id);
    assert.deepEqual(store.getSnapshot().map((t) => t.text), ['n2']);
    assert.equal(changes, 6);
  });
});

describe('purchase history', () => {
  it('a purchase says how it was paid and links its invoice', () => {
    const [row] = historyRows({ purchase_history: [{ id: 4, type: 'purchase', label: 'Pack 12 crédits', amount: 10, credits: 12, txid: 'stripe:pi_1', method: 'stripe', invoice: { number: 2, label: 'BT-000002', url: '/api/profile/invoices/2' }, date: '2026-01-15T10:00:00Z' }] });
    assert.deepEqual([row.label, row.invoice], ['Pack 12 crédits (carte)', { label: 'BT-000002', path: '/api/profile/invoices/2' }]);
    assert.equal(historyRows({ purchase_history: [{ type: 'backtest', credits: -2 }] })[0].invoice, null);
  });
});

describe('credit notes on the profile', () => {
  const note = { number: 1, label: 'AV-000001', url: '/api/profile/invoices/credit-notes/1', issued_at: '2026-02-03T09:30:00Z', invoice_label: 'BT-000042', amount_eur: 7 };

  it('reads the credit notes of the invoices answer, newest first as given, with their download path', () => {
    const rows = creditNoteRows({ items: [], credit_notes: [{ ...note, number: 2, label: 'AV-000002', url: '/api/profile/invoices/credit-notes/2', amount_eur: 3.5 }, note] });
    assert.deepEqual(rows.map((row) => [row.label, row.path]), [['AV-000002', '/api/profile/invoices/credit-notes/2'], ['AV-000001', '/api/profile/invoices/credit-notes/1']]);
    assert.equal(creditNoteText(rows[1]).replace(/\u202f|\u00a0/g, ' '), 'Avoir AV-000001 — sur la facture BT-000042 — 7,00 € — 03/02/2026');
  });

  it('shows nothing for an older server or a malformed field', () => {
    for (const answer of [{ items: [] }, { credit_notes: null }, { credit_notes: 'AV-000001' }, { credit_notes: { 0: note } }, null, 'x', []]) {
      assert.deepEqual(creditNoteRows(answer), [], JSON.stringify(answer));
    }
  });

  it('skips an item without a label or with a link that is not our download route, and a repeated one', () => {
    const rows = creditNoteRows({
      credit_notes: [
        null, 'AV-000009', [note],
        { ...note, label: '' },
        { ...note, label: 7 },
        { ...note, url: 'https://elsewhere.example/api/profile/invoices/credit-notes/1' },
        { ...note, url: '/api/admin/fs/download?rel=x' },
        { ...note, url: 12 },
        note, note,
      ],
    });
    assert.deepEqual(rows.map((row) => row.label), ['AV-000001']);
  });

  it('a missing or malformed amount, date or invoice label is left out', () => {
    const [bare] = creditNoteRows({ credit_notes: [{ label: 'AV-000003', url: '/api/profile/invoices/credit-notes/3', amount_eur: 'abc', issued_at: 'hier', invoice_label: 42 }] });
    assert.equal(creditNoteText(bare), 'Avoir AV-000003');
    const [amountOnly] = creditNoteRows({ credit_notes: [{ label: 'AV-000004', url: '/api/profile/invoices/credit-notes/4', amount_eur: '12.5' }] });
    assert.equal(creditNoteText(amountOnly).replace(/\u202f|\u00a0/g, ' '), 'Avoir AV-000004 — 12,50 €');
  });

  it('asks GET /api/profile/invoices without the login redirect; the note links with ?token=', async () => {
    const asked: unknown[] = [];
    const api = { get: async (path: string, options: unknown) => (asked.push([path, options]), { credit_notes: [note] }), url: (path: string, query: Record<string, string>) => `${path}?token=${query.token}` } as unknown as ApiClient;
    const calls = makePaymentCalls(api, () => 'KEY');
    const [row] = creditNoteRows(await calls.invoices());
    assert.deepEqual(asked, [['/api/profile/invoices', { redirectOnAuthError: false }]]);
    assert.equal(calls.invoiceUrl(row.path), '/api/profile/invoices/credit-notes/1?token=KEY');
  });
});
