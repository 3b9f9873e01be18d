/**
 * A local PayPal for the tests, speaking Orders v2: `POST /v1/oauth2/token` (client credentials in
 * Basic auth), `POST /v2/checkout/orders` (Bearer token; a `payer-action` link when
 * `payment_source.paypal.experience_context` is given, `approve` with `application_context`),
 * `POST /v2/checkout/orders/{id}/capture` (422 ORDER_NOT_APPROVED / ORDER_ALREADY_CAPTURED, the
 * same answer again for the same `PayPal-Request-Id`), `GET /v2/checkout/orders/{id}`. Its hosted
 * page approves the order and returns to `return_url` with `token` and `PayerID`.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { hostedPage, json, listen, redirect, withParams } from './provider-http.js';

type Json = Record<string, any>;

const paypalId = () => randomBytes(9).toString('hex').toUpperCase().slice(0, 17);
const issue = (name: string, issueCode: string, description: string) => ({ name, details: [{ issue: issueCode, description }], message: description });

export async function startPayPalServer(options: { clientId: string; clientSecret: string }) {
  const tokens = new Set<string>();
  const orders = new Map<string, Json>();
  const createRequests = new Map<string, Json>();
  const captures = new Map<string, { status: number; body: Json }>();
  const requests: { method: string; path: string; requestId: string | undefined }[] = [];
  /** Test hooks: the next capture is declined, or reports another amount. */
  const hooks: { declineNext?: string; captureAmount?: { value: string; currency_code: string } } = {};

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
          order.status = 'COMPLETED';
          const unit = order.purchase_units[0];
          unit.payments = {
            captures: [{ id: paypalId(), status: 'COMPLETED', amount: hooks.captureAmount ?? unit.amount, custom_id: unit.custom_id, final_capture: true, create_time: new Date().toISOString() }],
          };
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

  return { base: http.base, orders, requests, hooks, approve, close: http.close };
}

export type PayPalServer = Awaited<ReturnType<typeof startPayPalServer>>;
