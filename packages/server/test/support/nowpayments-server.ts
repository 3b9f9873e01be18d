/**
 * A local NOWPayments for the tests: `POST /v1/invoice` with `x-api-key` answers an invoice
 * whose `invoice_url` is its hosted page; paying there (or `notify`) POSTs IPNs to
 * `ipn_callback_url` signed as NOWPayments signs them: `x-nowpayments-sig` = HMAC-SHA512 (hex)
 * of the JSON body with its keys sorted, keyed with the IPN secret.
 */
import { createHmac } from 'node:crypto';
import { deliver, hostedPage, json, listen, redirect, type Delivery } from './provider-http.js';

type Json = Record<string, any>;

/** The signed text: objects with sorted keys at every depth. */
function sortedJson(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sort) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Json)[k])])) : v;
  return JSON.stringify(sort(value));
}

let sequence = 5_000_000_000;

export async function startNowPaymentsServer(options: { apiKey: string; ipnSecret: string }) {
  const invoices = new Map<string, Json>();
  const sent: Json[] = [];

  const http = await listen(async (req, res, url, raw) => {
    if (req.method === 'POST' && url.pathname === '/v1/invoice') {
      if (req.headers['x-api-key'] !== options.apiKey) return json(res, 403, { status: false, statusCode: 403, code: 'INVALID_API_KEY', message: 'Invalid api key' });
      const body = JSON.parse(raw || '{}');
      if (typeof body.price_amount !== 'number' || !body.price_currency) return json(res, 400, { status: false, statusCode: 400, code: 'BAD_CREATE_INVOICE_REQUEST', message: 'price_amount and price_currency are required' });
      const id = String(sequence++);
      const invoice = {
        id,
        token_id: id.slice(-8),
        order_id: body.order_id ?? null,
        order_description: body.order_description ?? null,
        price_amount: String(body.price_amount),
        price_currency: body.price_currency,
        pay_currency: body.pay_currency ?? null,
        ipn_callback_url: body.ipn_callback_url ?? null,
        invoice_url: `${http.base}/payment/?iid=${id}`,
        success_url: body.success_url ?? null,
        cancel_url: body.cancel_url ?? null,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
        payment_id: sequence++,
      };
      invoices.set(id, invoice);
      const { payment_id: _p, ...answer } = invoice;
      return json(res, 200, answer);
    }
    const invoice = invoices.get(url.searchParams.get('iid') ?? '');
    if (!invoice) return json(res, 404, { message: 'invoice not found' });
    if (req.method === 'GET' && url.pathname === '/payment/') {
      return hostedPage(res, { provider: 'NOWPayments', summary: `${invoice.order_description ?? 'Commande'} : ${invoice.price_amount} ${String(invoice.price_currency).toUpperCase()} en ${invoice.pay_currency}`, payAction: `/payment/pay?iid=${invoice.id}`, cancelAction: `/payment/cancel?iid=${invoice.id}` });
    }
    if (req.method === 'POST' && url.pathname === '/payment/pay') {
      await notify(invoice.id, 'confirming');
      await notify(invoice.id, 'finished');
      return redirect(res, invoice.success_url);
    }
    if (req.method === 'POST' && url.pathname === '/payment/cancel') return redirect(res, invoice.cancel_url);
    json(res, 404, { message: 'not found' });
  });

  /** The IPN body NOWPayments sends for this invoice at this status. */
  function ipnBody(invoiceId: string, status: string, overrides: Json = {}): Json {
    const invoice = invoices.get(invoiceId);
    if (!invoice) throw new Error(`no invoice ${invoiceId}`);
    const payAmount = Number((Number(invoice.price_amount) * 1.08).toFixed(6));
    return {
      payment_id: invoice.payment_id,
      parent_payment_id: null,
      invoice_id: Number(invoice.id),
      payment_status: status,
      pay_address: 'TLocalAddress000000000000000000000',
      payin_extra_id: null,
      price_amount: Number(invoice.price_amount),
      price_currency: invoice.price_currency,
      pay_amount: payAmount,
      actually_paid: status === 'finished' ? payAmount : 0,
      actually_paid_at_fiat: 0,
      pay_currency: invoice.pay_currency,
      order_id: invoice.order_id,
      order_description: invoice.order_description,
      purchase_id: String(invoice.payment_id + 1),
      outcome_amount: payAmount,
      outcome_currency: invoice.pay_currency,
      payment_extra_ids: null,
      fee: { currency: invoice.pay_currency, depositFee: 0, withdrawalFee: 0, serviceFee: 0 },
      ...overrides,
    };
  }

  function signature(body: unknown, secret = options.ipnSecret): string {
    return createHmac('sha512', secret).update(sortedJson(body)).digest('hex');
  }

  /** POSTs an IPN for the invoice to its ipn_callback_url, or `target` (a replay when called again). */
  function notify(invoiceId: string, status: string, opts: { overrides?: Json; secret?: string; signatureHeader?: string; target?: string } = {}): Promise<Delivery> {
    const invoice = invoices.get(invoiceId)!;
    const body = ipnBody(invoiceId, status, opts.overrides);
    sent.push(body);
    return deliver(opts.target ?? invoice.ipn_callback_url, JSON.stringify(body), { 'x-nowpayments-sig': opts.signatureHeader ?? signature(body, opts.secret) });
  }

  return { base: http.base, invoices, sent, ipnBody, signature, notify, close: http.close };
}

export type NowPaymentsServer = Awaited<ReturnType<typeof startNowPaymentsServer>>;
