/**
 * A local PayPal for the tests, speaking Orders v2: `POST /v1/oauth2/token` (client credentials in
 * Basic auth), `POST /v2/checkout/orders` (Bearer token; a `payer-action` link when
 * `payment_source.paypal.experience_context` is given, `approve` with `application_context`),
 * `POST /v2/checkout/orders/{id}/capture` (422 ORDER_NOT_APPROVED / ORDER_ALREADY_CAPTURED, the
 * same answer again for the same `PayPal-Request-Id`), `GET /v2/checkout/orders/{id}`,
 * `GET /v2/payments/captures/{id}`. Its hosted page approves the order and returns to `return_url`
 * with `token` and `PayerID`.
 *
 * Webhooks as PayPal sends them: a capture's completion or denial (a capture left PENDING by
 * `hooks.pendingNext`), refunds, reversals and disputes of a capture are events signed
 * with the server's RSA key (SHA256withRSA over `transmission_id|transmission_time|webhook_id|
 * crc32(body)`, the `PAYPAL-TRANSMISSION-*`, `PAYPAL-CERT-URL` and `PAYPAL-AUTH-ALGO` headers), for
 * the webhook id given at start; `POST /v1/notifications/verify-webhook-signature` checks a notice
 * the way PayPal does (Bearer token, the certificate URL, the signature for the merchant's webhook
 * id, the event as sent) and answers SUCCESS or FAILURE.
 */
import { createSign, createVerify, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { crc32 } from 'node:zlib';
import { deliver, hostedPage, json, listen, redirect, withParams, type Delivery } from './provider-http.js';

type Json = Record<string, any>;

/**
 * One signing key for every fake PayPal of a process: an RSA key takes 100 to 500 ms of CPU to
 * generate here, and the test files of a shared process start about twenty of these servers. Each
 * server still has its own certificate name and address, and verifies as genuine only a notice
 * that names its own certificate.
 */
let signingKeys: ReturnType<typeof generateRsaKeys> | undefined;
const generateRsaKeys = () => generateKeyPairSync('rsa', { modulusLength: 2048 });

const paypalId = () => randomBytes(9).toString('hex').toUpperCase().slice(0, 17);
const issue = (name: string, issueCode: string, description: string) => ({ name, details: [{ issue: issueCode, description }], message: description });

export async function startPayPalServer(options: { clientId: string; clientSecret: string; webhookId?: string }) {
  const tokens = new Set<string>();
  /** Captures by id, with their order; refunds by id; disputes by id. */
  const captureIndex = new Map<string, { capture: Json; order: Json }>();
  const refunds = new Map<string, Json>();
  /** The capture of each refund still PENDING. */
  const refundCaptures = new Map<string, string>();
  const disputes = new Map<string, Json>();
  const { privateKey, publicKey } = (signingKeys ??= generateRsaKeys());
  const certName = `CERT-360caa42-${randomBytes(4).toString('hex')}`;
  let webhookUrl: string | null = null;
  /** Every verification asked, with PayPal's answer. */
  const verifications: { transmissionId: string; webhookId: string; status: string }[] = [];
  const orders = new Map<string, Json>();
  const createRequests = new Map<string, Json>();
  const captures = new Map<string, { status: number; body: Json }>();
  const requests: { method: string; path: string; requestId: string | undefined }[] = [];
  /**
   * Test hooks: the next capture is declined, or left PENDING (its `status_details.reason`:
   * ECHECK, PENDING_REVIEW…), or reports another amount.
   */
  const hooks: { declineNext?: string; pendingNext?: string; captureAmount?: { value: string; currency_code: string }; verificationDown?: boolean } = {};

  const bearer = (req: IncomingMessage) => {
    const match = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    return !!match && tokens.has(match[1]);
  };
  const unauthorized = { name: 'AUTHENTICATION_FAILURE', message: 'Authentication failed due to invalid authentication credentials or a missing Authorization header.' };

  const http = await listen(async (req, res, url, raw) => {
    const path = url.pathname;
    const requestId = req.headers['paypal-request-id'] as string | undefined;
    requests.push({ method: req.method ?? '', path, requestId });
    if (req.method === 'POST' && path === '/v1/oauth2/token') {
      const expected = `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64')}`;
      if (req.headers.authorization !== expected || new URLSearchParams(raw).get('grant_type') !== 'client_credentials') {
        return json(res, 401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
      }
      const token = `A21AA${randomBytes(24).toString('base64url')}`;
      tokens.add(token);
      return json(res, 200, { scope: 'https://uri.paypal.com/services/payments/payment', access_token: token, token_type: 'Bearer', app_id: 'APP-LOCAL', expires_in: 32400, nonce: randomBytes(8).toString('hex') });
    }
    if (req.method === 'GET' && path === `/v1/notifications/certs/${certName}`) {
      res.writeHead(200, { 'content-type': 'application/x-pem-file' }).end(publicKey.export({ type: 'spki', format: 'pem' }));
      return;
    }
    if (req.method === 'POST' && path === '/v1/notifications/verify-webhook-signature') {
      if (!bearer(req)) return json(res, 401, unauthorized);
      if (hooks.verificationDown) return json(res, 503, { name: 'SERVICE_UNAVAILABLE', message: 'Service Unavailable.' });
      let body: Json;
      try {
        body = JSON.parse(raw);
      } catch {
        return json(res, 400, issue('INVALID_REQUEST', 'MALFORMED_REQUEST_JSON', 'The request JSON is not well formed.'));
      }
      const required = ['auth_algo', 'cert_url', 'transmission_id', 'transmission_sig', 'transmission_time', 'webhook_id', 'webhook_event'];
      const missing = required.filter((name) => !body[name]);
      if (missing.length) {
        return json(res, 400, { name: 'VALIDATION_ERROR', message: 'Invalid request - see details', details: missing.map((field) => ({ field, issue: 'MISSING_REQUIRED_PARAMETER' })) });
      }
      const signed = `${body.transmission_id}|${body.transmission_time}|${body.webhook_id}|${crc32(JSON.stringify(body.webhook_event))}`;
      const ok =
        body.auth_algo === 'SHA256withRSA' &&
        body.cert_url === certUrl() &&
        body.webhook_id === options.webhookId &&
        createVerify('RSA-SHA256').update(signed).verify(publicKey, String(body.transmission_sig), 'base64');
      const status = ok ? 'SUCCESS' : 'FAILURE';
      verifications.push({ transmissionId: String(body.transmission_id), webhookId: String(body.webhook_id), status });
      return json(res, 200, { verification_status: status });
    }
    if (path.startsWith('/v2/payments/captures/')) {
      if (!bearer(req)) return json(res, 401, unauthorized);
      const found = req.method === 'GET' ? captureIndex.get(path.slice('/v2/payments/captures/'.length)) : undefined;
      if (!found) return json(res, 404, issue('RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist. Please check the resource ID and try again.'));
      return json(res, 200, captureResource(found.capture, found.order));
    }
    if (path.startsWith('/v2/')) {
      if (!bearer(req)) return json(res, 401, unauthorized);
      if (req.method === 'POST' && path === '/v2/checkout/orders') {
        if (requestId && createRequests.has(requestId)) return json(res, 200, createRequests.get(requestId));
        const body = JSON.parse(raw || '{}');
        const unit = body.purchase_units?.[0];
        if (body.intent !== 'CAPTURE' || !unit?.amount?.currency_code || !/^\d+(\.\d{2})?$/.test(String(unit.amount.value))) {
          return json(res, 400, issue('INVALID_REQUEST', 'INVALID_PARAMETER_VALUE', 'intent CAPTURE and purchase_units[0].amount are required'));
        }
        const experience = body.payment_source?.paypal?.experience_context;
        const context = experience ?? body.application_context ?? {};
        const id = paypalId();
        const order = {
          id,
          intent: 'CAPTURE',
          status: experience ? 'PAYER_ACTION_REQUIRED' : 'CREATED',
          purchase_units: [{ reference_id: unit.reference_id ?? 'default', custom_id: unit.custom_id, description: unit.description, amount: unit.amount }],
          create_time: new Date().toISOString(),
          return_url: context.return_url,
          cancel_url: context.cancel_url,
          links: [
            { href: `${http.base}/v2/checkout/orders/${id}`, rel: 'self', method: 'GET' },
            { href: `${http.base}/checkoutnow?token=${id}`, rel: experience ? 'payer-action' : 'approve', method: 'GET' },
            { href: `${http.base}/v2/checkout/orders/${id}/capture`, rel: 'capture', method: 'POST' },
          ],
        };
        orders.set(id, order);
        const answer = { id, status: order.status, links: order.links };
        if (requestId) createRequests.set(requestId, answer);
        return json(res, 201, answer);
      }
      const match = /^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/.exec(path);
      const order = match ? orders.get(match[1]) : undefined;
      if (!match || !order) return json(res, 404, issue('RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist.'));
      if (req.method === 'GET' && !match[2]) return json(res, 200, publicOrder(order));
      if (req.method === 'POST' && match[2]) {
        const key = `${order.id}:${requestId ?? ''}`;
        if (requestId && captures.has(key)) {
          const again = captures.get(key)!;
          return json(res, again.status, again.body);
        }
        let answer: { status: number; body: Json };
        if (order.status === 'COMPLETED') answer = { status: 422, body: issue('UNPROCESSABLE_ENTITY', 'ORDER_ALREADY_CAPTURED', 'Order already captured.') };
        else if (order.status !== 'APPROVED') answer = { status: 422, body: issue('UNPROCESSABLE_ENTITY', 'ORDER_NOT_APPROVED', 'Payer has not yet approved the Order for payment.') };
        else if (hooks.declineNext) {
          answer = { status: 422, body: issue('UNPROCESSABLE_ENTITY', hooks.declineNext, 'The instrument presented was declined.') };
          delete hooks.declineNext;
        } else {
          captureNow(order);
          answer = { status: 201, body: publicOrder(order) };
        }
        if (requestId) captures.set(key, answer);
        return json(res, answer.status, answer.body);
      }
    }
    // The hosted approval page.
    const order = orders.get(url.searchParams.get('token') ?? '');
    if (!order) return json(res, 404, { error: 'no such order' });
    if (req.method === 'GET' && path === '/checkoutnow') {
      return hostedPage(res, { provider: 'PayPal', summary: `${order.purchase_units[0].description ?? 'Commande'} : ${order.purchase_units[0].amount.value} ${order.purchase_units[0].amount.currency_code}`, payAction: `/checkoutnow/approve?token=${order.id}`, cancelAction: `/checkoutnow/cancel?token=${order.id}` });
    }
    if (req.method === 'POST' && path === '/checkoutnow/approve') {
      approve(order.id);
      return redirect(res, withParams(order.return_url, { token: order.id, PayerID: order.payer.payer_id }));
    }
    if (req.method === 'POST' && path === '/checkoutnow/cancel') return redirect(res, withParams(order.cancel_url, { token: order.id }));
    json(res, 404, { error: 'not found' });
  });

  function captureNow(order: Json): Json {
    order.status = 'COMPLETED';
    const unit = order.purchase_units[0];
    const capture: Json = { id: paypalId(), status: 'COMPLETED', amount: hooks.captureAmount ?? unit.amount, custom_id: unit.custom_id, final_capture: true, create_time: new Date().toISOString() };
    // PayPal completes the order and holds the capture: PENDING with its reason.
    if (hooks.pendingNext) {
      capture.status = 'PENDING';
      capture.status_details = { reason: hooks.pendingNext };
      delete hooks.pendingNext;
    }
    unit.payments = { captures: [capture] };
    captureIndex.set(capture.id, { capture, order });
    return capture;
  }

  const certUrl = () => `${http.base}/v1/notifications/certs/${certName}`;

  /** A capture as `GET /v2/payments/captures/{id}` shows it. */
  function captureResource(capture: Json, order: Json): Json {
    return {
      ...structuredClone(capture),
      update_time: new Date().toISOString(),
      links: [
        { href: `${http.base}/v2/payments/captures/${capture.id}`, rel: 'self', method: 'GET' },
        { href: `${http.base}/v2/payments/captures/${capture.id}/refund`, rel: 'refund', method: 'POST' },
        { href: `${http.base}/v2/checkout/orders/${order.id}`, rel: 'up', method: 'GET' },
      ],
    };
  }

  const cents = (value: string) => Math.round(Number(value) * 100);
  const money = (currency: string, amount: number) => ({ currency_code: currency, value: (amount / 100).toFixed(2) });

  function event(type: string, resourceType: string, resource: Json, summary: string): Json {
    return {
      id: `WH-${paypalId()}-${paypalId()}`,
      event_version: '1.0',
      create_time: new Date().toISOString(),
      resource_type: resourceType,
      resource_version: '2.0',
      event_type: type,
      summary,
      resource: structuredClone(resource),
      links: [{ href: `${http.base}/v1/notifications/webhooks-events/WH-x`, rel: 'self', method: 'GET' }],
    };
  }

  /**
   * A refund from the dashboard (`reverse`: a reversal, PayPal taking the money back), of `amount`
   * cents (all that is left by default), sent in `PAYMENT.CAPTURE.REFUNDED` / `…REVERSED` with
   * the capture's refunded total so far. `send: false` builds the event without sending it.
   */
  async function refund(captureId: string, opts: { amount?: number; reverse?: boolean; send?: boolean; pending?: boolean } = {}) {
    const found = captureIndex.get(captureId);
    if (!found) throw new Error(`no capture ${captureId}`);
    const { capture } = found;
    if (!['COMPLETED', 'PARTIALLY_REFUNDED'].includes(capture.status)) throw new Error(`capture ${captureId} is ${capture.status}: not refundable`);
    const currency = capture.amount.currency_code;
    const refundedBefore = (capture.refunded_cents as number | undefined) ?? 0;
    const amount = opts.amount ?? cents(capture.amount.value) - refundedBefore;
    if (amount <= 0 || refundedBefore + amount > cents(capture.amount.value)) throw new Error(`refund of ${amount} over the capture's ${cents(capture.amount.value) - refundedBefore} left`);
    const id = paypalId();
    // A refund PayPal cannot complete at once (an eCheck-funded one): PENDING, notified by
    // PAYMENT.REFUND.PENDING; the capture's refunded total counts it once completed (completeRefund).
    if (!opts.pending) {
      capture.refunded_cents = refundedBefore + amount;
      capture.status = capture.refunded_cents === cents(capture.amount.value) ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    } else {
      refundCaptures.set(id, captureId);
    }
    const resource = {
      id,
      amount: money(currency, amount),
      note_to_payer: opts.reverse ? 'Payment reversed' : undefined,
      seller_payable_breakdown: {
        gross_amount: money(currency, amount),
        paypal_fee: money(currency, 0),
        net_amount: money(currency, amount),
        total_refunded_amount: money(currency, capture.refunded_cents ?? 0),
      },
      custom_id: capture.custom_id,
      status: opts.pending ? 'PENDING' : 'COMPLETED',
      status_details: opts.pending ? { reason: 'ECHECK' } : undefined,
      create_time: new Date().toISOString(),
      update_time: new Date().toISOString(),
      links: [
        { href: `${http.base}/v2/payments/refunds/${id}`, rel: 'self', method: 'GET' },
        { href: `${http.base}/v2/payments/captures/${captureId}`, rel: 'up', method: 'GET' },
      ],
    };
    refunds.set(id, resource);
    const type = opts.pending ? 'PAYMENT.REFUND.PENDING' : opts.reverse ? 'PAYMENT.CAPTURE.REVERSED' : 'PAYMENT.CAPTURE.REFUNDED';
    const e = event(type, 'refund', resource, `A ${resource.amount.value} ${currency} capture payment was ${opts.reverse ? 'reversed' : 'refunded'}`);
    return { event: e, refund: resource, delivery: opts.send === false ? null : await send(e) };
  }

  /** A PENDING refund completes: PAYMENT.CAPTURE.REFUNDED, the refund COMPLETED, the capture's refunded total with it. */
  async function completeRefund(refundId: string, opts: { send?: boolean } = {}) {
    const resource = refunds.get(refundId);
    const captureId = refundCaptures.get(refundId);
    if (!resource || !captureId || resource.status !== 'PENDING') throw new Error(`no pending refund ${refundId}`);
    const { capture } = captureIndex.get(captureId)!;
    capture.refunded_cents = ((capture.refunded_cents as number | undefined) ?? 0) + cents(resource.amount.value);
    capture.status = capture.refunded_cents === cents(capture.amount.value) ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    resource.status = 'COMPLETED';
    delete resource.status_details;
    resource.update_time = new Date().toISOString();
    resource.seller_payable_breakdown.total_refunded_amount = money(capture.amount.currency_code, capture.refunded_cents);
    const e = event('PAYMENT.CAPTURE.REFUNDED', 'refund', resource, `A ${resource.amount.value} ${capture.amount.currency_code} capture payment was refunded`);
    return { event: e, refund: resource, delivery: opts.send === false ? null : await send(e) };
  }

  /**
   * PayPal settles a capture it held PENDING: `PAYMENT.CAPTURE.COMPLETED` or `PAYMENT.CAPTURE.DENIED`,
   * the capture as `GET /v2/payments/captures/{id}` shows it (custom_id, `up` link to the order,
   * the order id in `supplementary_data`), the money in `seller_receivable_breakdown`.
   */
  async function settleCapture(captureId: string, outcome: 'COMPLETED' | 'DENIED', opts: { send?: boolean } = {}) {
    const found = captureIndex.get(captureId);
    if (!found) throw new Error(`no capture ${captureId}`);
    const { capture, order } = found;
    // PayPal notifies PAYMENT.CAPTURE.COMPLETED for a capture completed at once too.
    if (capture.status !== 'PENDING' && !(outcome === 'COMPLETED' && capture.status === 'COMPLETED')) throw new Error(`capture ${captureId} is ${capture.status}, not PENDING`);
    capture.status = outcome;
    delete capture.status_details;
    if (outcome === 'DENIED') capture.status_details = { reason: 'DECLINED_BY_RISK_FRAUD_FILTERS' };
    const resource = {
      ...captureResource(capture, order),
      seller_protection: { status: 'ELIGIBLE', dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'] },
      seller_receivable_breakdown: { gross_amount: capture.amount, paypal_fee: money(capture.amount.currency_code, 0), net_amount: capture.amount },
      supplementary_data: { related_ids: { order_id: order.id } },
    };
    const e = event(`PAYMENT.CAPTURE.${outcome}`, 'capture', resource, `Payment ${outcome === 'COMPLETED' ? 'completed' : 'denied'} for ${capture.amount.value} ${capture.amount.currency_code}`);
    return { event: e, delivery: opts.send === false ? null : await send(e) };
  }

  /**
   * A dispute of the capture's whole amount: opened (`CUSTOMER.DISPUTE.CREATED`, then `…UPDATED`
   * while open), then `RESOLVED` with an outcome (RESOLVED_BUYER_FAVOUR, RESOLVED_SELLER_FAVOUR…).
   */
  async function dispute(captureId: string, outcome: 'open' | 'RESOLVED_BUYER_FAVOUR' | 'RESOLVED_SELLER_FAVOUR' | 'CANCELED_BY_BUYER', opts: { send?: boolean } = {}) {
    const found = captureIndex.get(captureId);
    if (!found) throw new Error(`no capture ${captureId}`);
    let d = [...disputes.values()].find((x) => x.disputed_transactions[0].seller_transaction_id === captureId);
    const created = !d;
    d ??= {
      dispute_id: `PP-D-${Math.floor(Math.random() * 1e6)}`,
      create_time: new Date().toISOString(),
      disputed_transactions: [{ seller_transaction_id: captureId, create_time: found.capture.create_time, transaction_status: 'COMPLETED', gross_amount: found.capture.amount, custom: found.capture.custom_id }],
      reason: 'MERCHANDISE_OR_SERVICE_NOT_RECEIVED',
      dispute_amount: found.capture.amount,
      dispute_life_cycle_stage: 'INQUIRY',
      dispute_channel: 'INTERNAL',
    };
    d.update_time = new Date().toISOString();
    d.status = outcome === 'open' ? 'WAITING_FOR_SELLER_RESPONSE' : 'RESOLVED';
    if (outcome !== 'open') d.dispute_outcome = { outcome_code: outcome, amount_refunded: outcome === 'RESOLVED_BUYER_FAVOUR' ? d.dispute_amount : money(d.dispute_amount.currency_code, 0) };
    disputes.set(d.dispute_id, d);
    const type = outcome !== 'open' ? 'CUSTOMER.DISPUTE.RESOLVED' : created ? 'CUSTOMER.DISPUTE.CREATED' : 'CUSTOMER.DISPUTE.UPDATED';
    const e = event(type, 'dispute', d, `A dispute ${outcome === 'open' ? 'was opened' : 'was resolved'}`);
    return { event: e, dispute: d, delivery: opts.send === false ? null : await send(e) };
  }

  /** The transmission headers PayPal signs a notice with, for `webhookId` (the one given at start by default). */
  function sign(payload: string, webhookId = options.webhookId ?? ''): Record<string, string> {
    const transmissionId = randomUUID();
    const time = new Date().toISOString();
    const signature = createSign('RSA-SHA256').update(`${transmissionId}|${time}|${webhookId}|${crc32(payload)}`).sign(privateKey, 'base64');
    return {
      'paypal-transmission-id': transmissionId,
      'paypal-transmission-time': time,
      'paypal-transmission-sig': signature,
      'paypal-cert-url': certUrl(),
      'paypal-auth-algo': 'SHA256withRSA',
      'paypal-auth-version': 'v2',
    };
  }

  /**
   * Sends a notice (again: a replay), signed. To forge one: `payload` replaces the body after it
   * was signed, `webhookId` signs it for another webhook, `headers` replaces headers.
   */
  function send(e: Json, opts: { payload?: string; webhookId?: string; headers?: Record<string, string> } = {}): Promise<Delivery> {
    if (!webhookUrl) throw new Error('set the webhook URL first (paypal.setWebhook)');
    const payload = JSON.stringify(e);
    return deliver(webhookUrl, opts.payload ?? payload, { ...sign(payload, opts.webhookId), ...opts.headers });
  }

  function publicOrder(order: Json): Json {
    const { return_url: _r, cancel_url: _c, ...rest } = order;
    return structuredClone(rest);
  }

  /** What the buyer does on PayPal's page. */
  function approve(orderId: string) {
    const order = orders.get(orderId);
    if (!order) throw new Error(`no order ${orderId}`);
    if (order.status !== 'COMPLETED') order.status = 'APPROVED';
    order.payer = { payer_id: paypalId().slice(0, 13), email_address: 'buyer@example.com' };
  }

  /** The capture of an order, made at PayPal without us (its answer lost on the way back). */
  function captureAtPayPal(orderId: string): Json {
    const order = orders.get(orderId);
    if (!order || order.status !== 'APPROVED') throw new Error(`order ${orderId} not approved`);
    return captureNow(order);
  }

  const captureOf = (orderId: string): string => orders.get(orderId)!.purchase_units[0].payments.captures[0].id;

  return {
    base: http.base,
    orders,
    requests,
    hooks,
    verifications,
    approve,
    captureAtPayPal,
    captureOf,
    /** Every access token stops working (PayPal revoked them before their time). */
    revokeTokens: () => tokens.clear(),
    refund,
    completeRefund,
    settleCapture,
    dispute,
    send,
    setWebhook(url: string) {
      webhookUrl = url;
    },
    close: http.close,
  };
}

export type PayPalServer = Awaited<ReturnType<typeof startPayPalServer>>;
