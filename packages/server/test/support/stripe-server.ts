/**
 * A local Stripe for the tests, speaking Stripe's protocol: the official SDK (pointed at it by
 * host/port/protocol) creates Checkout sessions with form-encoded bodies (`line_items[0][...]`)
 * and a Bearer secret key, updates and cancels subscriptions; events are POSTed to the webhook
 * with the real `Stripe-Signature: t=...,v1=HMAC-SHA256(secret, "t.payload")` header, which our
 * server checks with the SDK's constructEvent. Its hosted page (`url` of a session) has a pay
 * button that completes the session, sends the events and redirects to `success_url`.
 */
import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { deliver, hostedPage, json, listen, randomId, redirect, type Delivery } from './provider-http.js';

type Json = Record<string, any>;
const API_VERSION = '2026-10-28.endive';
const DAY = 86_400;

/** `a[b][0][c]=v` (Stripe's form encoding) → nested objects and arrays. */
export function parseStripeForm(body: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Json = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = node[part] ??= /^\d+$/.test(path[i + 1]) ? [] : {};
    });
  }
  return root;
}

export interface StripeServerOptions {
  secretKey: string;
  webhookSecret: string;
  /** Seconds of the objects' clock (periods, created): the app's clock in tests. */
  now?: () => number;
}

export interface CompleteOptions {
  /** A tampered or wrong total (the webhook must refuse it). */
  amountTotal?: number;
  currency?: string;
  /** Subscriptions: send invoice.paid before checkout.session.completed. */
  invoiceFirst?: boolean;
}

export async function startStripeServer(options: StripeServerOptions) {
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const sessions = new Map<string, Json>();
  const subscriptions = new Map<string, Json>();
  const invoices = new Map<string, Json>();
  /** Charges by payment intent (a pack's, or a subscription invoice's), and disputes by id. */
  const charges = new Map<string, Json>();
  const disputes = new Map<string, Json>();
  /** The payment intent of each paid invoice (Stripe's invoice payments; not a field of the invoice). */
  const invoiceIntents = new Map<string, string>();
  const idempotent = new Map<string, Json>();
  const sent: Json[] = [];
  const requests: { method: string; path: string; body: Json }[] = [];
  let webhookUrl = '';
  const pending = new Set<Promise<unknown>>();

  const authorized = (req: IncomingMessage) => req.headers.authorization === `Bearer ${options.secretKey}`;

  const http = await listen(async (req, res, url, raw) => {
    const path = url.pathname;
    if (path.startsWith('/v1/')) {
      if (!authorized(req)) return json(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      const body = parseStripeForm(raw);
      requests.push({ method: req.method ?? '', path, body });
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        const key = String(req.headers['idempotency-key'] ?? '');
        if (key && idempotent.has(key)) return json(res, 200, idempotent.get(key));
        const session = createSession(body);
        if ('error' in session) return json(res, 400, session);
        if (key) idempotent.set(key, session);
        return json(res, 200, session);
      }
      const sessionMatch = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && sessionMatch) return sessions.has(sessionMatch[1]) ? json(res, 200, sessions.get(sessionMatch[1])) : missing(res, sessionMatch[1]);
      const subMatch = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
      if (subMatch) {
        const sub = subscriptions.get(subMatch[1]);
        if (!sub) return missing(res, subMatch[1]);
        if (req.method === 'GET') return json(res, 200, sub);
        if (req.method === 'POST') {
          if (body.cancel_at_period_end !== undefined) sub.cancel_at_period_end = body.cancel_at_period_end === 'true';
          queue(event('customer.subscription.updated', sub));
          return json(res, 200, sub);
        }
        if (req.method === 'DELETE') {
          sub.status = 'canceled';
          sub.canceled_at = now();
          queue(event('customer.subscription.deleted', sub));
          return json(res, 200, sub);
        }
      }
      const invoiceMatch = /^\/v1\/invoices\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && invoiceMatch) return invoices.has(invoiceMatch[1]) ? json(res, 200, invoices.get(invoiceMatch[1])) : missing(res, invoiceMatch[1]);
      // Sessions by payment intent (the list endpoint's filter).
      if (req.method === 'GET' && path === '/v1/checkout/sessions') {
        const intent = parseStripeForm(url.search.slice(1)).payment_intent;
        const data = [...sessions.values()].filter((x) => intent && x.payment_intent === intent);
        return json(res, 200, { object: 'list', data, has_more: false, url: '/v1/checkout/sessions' });
      }
      // The invoice a payment intent paid (basil and later: charges no longer name their invoice).
      if (req.method === 'GET' && path === '/v1/invoice_payments') {
        const query = parseStripeForm(url.search.slice(1));
        const intent = query.payment?.payment_intent;
        const data = [...invoices.values()]
          .filter((inv) => intent && invoiceIntents.get(inv.id) === intent)
          .map((inv) => ({ id: `inpay_${inv.id.slice(3)}`, object: 'invoice_payment', invoice: inv.id, amount_paid: inv.amount_paid, currency: inv.currency, is_default: true, payment: { type: 'payment_intent', payment_intent: intent }, status: 'paid' }));
        return json(res, 200, { object: 'list', data, has_more: false, url: '/v1/invoice_payments' });
      }
      return json(res, 404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path})` } });
    }
    // The hosted Checkout page.
    const page = /^\/c\/pay\/([^/]+?)(\/cancel)?$/.exec(path);
    const session = page ? sessions.get(page[1]) : undefined;
    if (!page || !session) return json(res, 404, { error: 'no such page' });
    if (req.method === 'GET') {
      return hostedPage(res, { provider: 'Stripe Checkout', summary: `${session.line_items[0].price_data.product_data.name} : ${(session.amount_total / 100).toFixed(2)} EUR`, payAction: `/c/pay/${session.id}`, cancelAction: `/c/pay/${session.id}/cancel` });
    }
    if (page[2]) return redirect(res, session.cancel_url);
    await complete(session.id);
    redirect(res, String(session.success_url).replace('{CHECKOUT_SESSION_ID}', session.id));
  });

  function missing(res: Parameters<typeof json>[0], id: string) {
    json(res, 404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such object: '${id}'` } });
  }

  function createSession(body: Json): Json {
    const item = body.line_items?.[0];
    const unit = Number(item?.price_data?.unit_amount);
    if (!['payment', 'subscription'].includes(body.mode) || !Number.isInteger(unit) || !body.success_url) {
      return { error: { type: 'invalid_request_error', message: 'mode, line_items and success_url are required' } };
    }
    if (body.mode === 'subscription' && !item.price_data.recurring) return { error: { type: 'invalid_request_error', message: 'recurring price required in subscription mode' } };
    const id = randomId('cs_test_');
    const session: Json = {
      id,
      object: 'checkout.session',
      mode: body.mode,
      amount_subtotal: unit * Number(item.quantity ?? 1),
      amount_total: unit * Number(item.quantity ?? 1),
      currency: item.price_data.currency,
      client_reference_id: body.client_reference_id ?? null,
      customer_email: body.customer_email ?? null,
      metadata: body.metadata ?? {},
      line_items: body.line_items,
      subscription_data: body.subscription_data ?? null,
      payment_status: 'unpaid',
      status: 'open',
      payment_intent: null,
      subscription: null,
      invoice: null,
      success_url: body.success_url,
      cancel_url: body.cancel_url ?? null,
      url: `${http.base}/c/pay/${id}`,
      created: now(),
      expires_at: now() + DAY,
      livemode: false,
    };
    sessions.set(id, session);
    return session;
  }

  function event(type: string, object: Json): Json {
    return { id: randomId('evt_'), object: 'event', api_version: API_VERSION, created: now(), type, data: { object: structuredClone(object) }, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null } };
  }

  function newInvoice(sub: Json, billingReason: string, paid: boolean, amount?: number): Json {
    const start = sub.current_period_end ?? now();
    const period = Number(sub.items.data[0].price.recurring.interval_count) * DAY;
    const invoice = {
      id: randomId('in_'),
      object: 'invoice',
      billing_reason: billingReason,
      status: paid ? 'paid' : 'open',
      amount_due: sub.items.data[0].price.unit_amount,
      amount_paid: paid ? (amount ?? sub.items.data[0].price.unit_amount) : 0,
      currency: sub.items.data[0].price.currency,
      customer: sub.customer,
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: sub.id, metadata: sub.metadata } },
      lines: { object: 'list', data: [{ id: randomId('il_'), amount: sub.items.data[0].price.unit_amount, period: { start, end: start + period } }] },
      created: now(),
    };
    invoices.set(invoice.id, invoice);
    if (paid) {
      sub.current_period_end = start + period;
      invoiceIntents.set(invoice.id, newCharge(invoice.amount_paid, invoice.currency).payment_intent);
    }
    return invoice;
  }

  /** The buyer pays on the hosted page: the session completes and its events are sent (awaited). */
  async function complete(sessionId: string, opts: CompleteOptions = {}): Promise<{ events: Json[]; deliveries: Delivery[] }> {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    session.payment_status = 'paid';
    session.status = 'complete';
    if (opts.amountTotal !== undefined) session.amount_total = opts.amountTotal;
    if (opts.currency !== undefined) session.currency = opts.currency;
    const events: Json[] = [];
    if (session.mode === 'payment') {
      session.payment_intent = newCharge(session.amount_total, session.currency).payment_intent;
      events.push(event('checkout.session.completed', session));
    } else {
      const price = session.line_items[0].price_data;
      const sub: Json = {
        id: randomId('sub_'),
        object: 'subscription',
        status: 'active',
        customer: randomId('cus_', 7),
        cancel_at_period_end: false,
        metadata: session.subscription_data?.metadata ?? {},
        items: { data: [{ price: { unit_amount: opts.amountTotal ?? Number(price.unit_amount), currency: opts.currency ?? price.currency, recurring: price.recurring } }] },
        current_period_end: null,
      };
      subscriptions.set(sub.id, sub);
      const invoice = newInvoice(sub, 'subscription_create', true);
      session.subscription = sub.id;
      session.invoice = invoice.id;
      const completed = event('checkout.session.completed', session);
      const paid = event('invoice.paid', invoice);
      events.push(...(opts.invoiceFirst ? [paid, completed] : [completed, paid]));
    }
    const deliveries: Delivery[] = [];
    for (const e of events) deliveries.push(await send(e));
    return { events, deliveries };
  }

  /** The charge behind a payment intent, as Stripe's Charge object (API 2025+: no `invoice` field). */
  function newCharge(amount: number, currency: string): Json {
    const charge = {
      id: randomId('ch_'),
      object: 'charge',
      amount,
      amount_captured: amount,
      amount_refunded: 0,
      currency,
      paid: true,
      captured: true,
      refunded: false,
      disputed: false,
      status: 'succeeded',
      payment_intent: randomId('pi_'),
      created: now(),
      livemode: false,
    };
    charges.set(charge.payment_intent, charge);
    return charge;
  }

  /** The charge of a pack's payment intent or of a subscription invoice (`in_…`). */
  function chargeOf(paymentIntentOrInvoice: string): Json {
    const intent = paymentIntentOrInvoice.startsWith('in_') ? invoiceIntents.get(paymentIntentOrInvoice) : paymentIntentOrInvoice;
    const charge = intent ? charges.get(intent) : undefined;
    if (!charge) throw new Error(`no charge for ${paymentIntentOrInvoice}`);
    return charge;
  }

  /**
   * A refund from the dashboard: `amount` cents more (all that is left by default); the charge,
   * with its cumulative `amount_refunded`, is sent in `charge.refunded`. `send: false` builds the
   * event without sending it (to deliver copies out of order).
   */
  async function refund(paymentIntentOrInvoice: string, opts: { amount?: number; send?: boolean } = {}) {
    const charge = chargeOf(paymentIntentOrInvoice);
    const amount = opts.amount ?? charge.amount - charge.amount_refunded;
    if (amount <= 0 || charge.amount_refunded + amount > charge.amount) throw new Error(`refund of ${amount} over the charge's ${charge.amount - charge.amount_refunded} left`);
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    const e = event('charge.refunded', charge);
    return { event: e, delivery: opts.send === false ? null : await send(e) };
  }

  /**
   * A dispute (chargeback) of the whole charge: opened (`charge.dispute.created`, status
   * needs_response), then closed as won or lost (`charge.dispute.closed`).
   */
  async function dispute(paymentIntentOrInvoice: string, status: 'needs_response' | 'won' | 'lost', opts: { send?: boolean } = {}) {
    const charge = chargeOf(paymentIntentOrInvoice);
    let d = [...disputes.values()].find((x) => x.charge === charge.id);
    const created = !d;
    d ??= { id: randomId('dp_'), object: 'dispute', amount: charge.amount - charge.amount_refunded, currency: charge.currency, charge: charge.id, payment_intent: charge.payment_intent, reason: 'fraudulent', created: now(), livemode: false, status };
    d.status = status;
    disputes.set(d.id, d);
    charge.disputed = true;
    const e = event(created && status === 'needs_response' ? 'charge.dispute.created' : status === 'needs_response' ? 'charge.dispute.updated' : 'charge.dispute.closed', d);
    return { event: e, dispute: d, delivery: opts.send === false ? null : await send(e) };
  }

  /** The next period of a subscription: invoice.paid, or invoice.payment_failed. */
  async function renew(subscriptionId: string, opts: { fail?: boolean; amount?: number } = {}) {
    const sub = subscriptions.get(subscriptionId);
    if (!sub) throw new Error(`no subscription ${subscriptionId}`);
    const invoice = newInvoice(sub, 'subscription_cycle', !opts.fail, opts.amount);
    const e = event(opts.fail ? 'invoice.payment_failed' : 'invoice.paid', invoice);
    return { event: e, invoice, delivery: await send(e) };
  }

  async function expire(sessionId: string) {
    const session = sessions.get(sessionId)!;
    session.status = 'expired';
    return send(event('checkout.session.expired', session));
  }

  /** `Stripe-Signature` as Stripe computes it. */
  function signature(payload: string, secret = options.webhookSecret, timestamp = Math.floor(Date.now() / 1000)): string {
    return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex')}`;
  }

  /** Sends an event (again: a replay), signed; `secret` or `signatureHeader` to forge it. */
  function send(e: Json, opts: { secret?: string; signatureHeader?: string; payload?: string } = {}): Promise<Delivery> {
    if (!webhookUrl) throw new Error('set the webhook URL first (stripe.setWebhook)');
    sent.push(e);
    const payload = opts.payload ?? JSON.stringify(e, null, 2);
    return deliver(webhookUrl, payload, { 'stripe-signature': opts.signatureHeader ?? signature(payload, opts.secret) });
  }

  /** Events Stripe sends on its own (subscription updates) go out after the API answer. */
  function queue(e: Json) {
    if (!webhookUrl) return;
    const p = send(e).catch(() => undefined);
    pending.add(p);
    void p.finally(() => pending.delete(p));
  }

  return {
    base: http.base,
    sessions,
    subscriptions,
    invoices,
    sent,
    requests,
    setWebhook(url: string) {
      webhookUrl = url;
    },
    complete,
    renew,
    refund,
    dispute,
    charges,
    expire,
    send,
    signature,
    /** Waits for the events sent after an API call. */
    async settle() {
      while (pending.size) await Promise.all([...pending]);
    },
    close: http.close,
  };
}

export type StripeServer = Awaited<ReturnType<typeof startStripeServer>>;
