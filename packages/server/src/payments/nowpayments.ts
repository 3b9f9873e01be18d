import { createHmac, timingSafeEqual } from 'node:crypto';
import { ProviderError, SignatureError, type CryptoGateway, type CryptoNotification, type InvoiceRequest } from './gateways.js';
import { callProvider, providerMessage } from './http.js';
import type { NowPaymentsSettings } from './settings.js';

/** Objects with their keys sorted, at every depth: the text NOWPayments signs. */
export function sortedJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])]));
    return v;
  };
  return JSON.stringify(sort(value));
}

/** HMAC-SHA512 (hex) of the sorted JSON with the IPN secret: the `x-nowpayments-sig` header. */
export function nowPaymentsSignature(body: unknown, secret: string): string {
  return createHmac('sha512', secret).update(sortedJson(body)).digest('hex');
}

/**
 * A NOWPayments-compatible crypto gateway: hosted invoices (`POST /v1/invoice` with `x-api-key`,
 * the buyer pays on `invoice_url`) and signed IPN callbacks.
 */
export class NowPaymentsInvoices implements CryptoGateway {
  constructor(private readonly settings: NowPaymentsSettings) {}

  async createInvoice(request: InvoiceRequest): Promise<{ id: string; invoiceUrl: string }> {
    const { status, body } = await callProvider('crypto', `${this.settings.apiBase}/v1/invoice`, {
      method: 'POST',
      headers: { 'x-api-key': this.settings.apiKey, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        price_amount: request.priceCents / 100,
        price_currency: 'eur',
        pay_currency: request.payCurrency,
        order_id: request.reference,
        order_description: request.description,
        ipn_callback_url: request.ipnCallbackUrl,
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        is_fee_paid_by_user: false,
      }),
    });
    const id = body.id;
    if (status !== 200 && status !== 201) throw new ProviderError('crypto', `invoice refused (HTTP ${status}): ${providerMessage(body)}`, status);
    if ((typeof id !== 'string' && typeof id !== 'number') || typeof body.invoice_url !== 'string') throw new ProviderError('crypto', 'invoice without id or invoice_url', status);
    return { id: String(id), invoiceUrl: body.invoice_url };
  }

  parseNotification(rawBody: Uint8Array, signature: string): CryptoNotification {
    let body: unknown;
    try {
      body = JSON.parse(Buffer.from(rawBody).toString('utf8'));
    } catch {
      throw new SignatureError('IPN body is not JSON');
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new SignatureError('IPN body is not an object');
    const expected = Buffer.from(nowPaymentsSignature(body, this.settings.ipnSecret), 'hex');
    const given = /^[0-9a-f]{128}$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new SignatureError('x-nowpayments-sig refused');
    const notification = body as CryptoNotification;
    if ((typeof notification.payment_id !== 'string' && typeof notification.payment_id !== 'number') || typeof notification.payment_status !== 'string') {
      throw new SignatureError('IPN without payment_id or payment_status');
    }
    return notification;
  }
}
