/**
 * The payment tests' set-up: the three local provider servers, and the file's app with the real
 * gateways (Stripe SDK, PayPal and NOWPayments clients) pointed at them.
 */
import { PayPalOrders } from '../../src/payments/paypal.js';
import { NowPaymentsInvoices } from '../../src/payments/nowpayments.js';
import { StripeCheckout } from '../../src/payments/stripe.js';
import type { SellerSettings } from '../../src/payments/settings.js';
import { useTestApp, type TestApp } from './app.js';
import { startNowPaymentsServer, type NowPaymentsServer } from './nowpayments-server.js';
import { startPayPalServer, type PayPalServer } from './paypal-server.js';
import { startStripeServer, type StripeServer } from './stripe-server.js';
import { ledgerRows } from './work.js';

export const STRIPE_KEYS = { secretKey: 'sk_test_local_0123456789', webhookSecret: 'whsec_local_0123456789abcdef' };
export const PAYPAL_KEYS = { clientId: 'paypal-client-local', clientSecret: 'paypal-secret-local' };
/** The id PayPal gave our webhook (PAYPAL_WEBHOOK_ID). */
export const PAYPAL_WEBHOOK_ID = '8PT597110X687430LKGECATA';
export const NOWPAYMENTS_KEYS = { apiKey: 'NP-LOCAL-API-KEY', ipnSecret: 'np-ipn-secret-local' };

export const TEST_SELLER: SellerSettings = {
  name: 'bt SAS',
  address: ['12 rue des Bougies', '75002 Paris'],
  email: 'factures@bt.test',
  vatId: 'FR00123456789',
  registration: '123 456 789 00012',
  vatRatePercent: 20,
  vatNote: null,
  invoicePrefix: 'BT-',
};

export interface PaymentTestApp {
  t: TestApp;
  stripe: StripeServer;
  paypal: PayPalServer;
  nowpayments: NowPaymentsServer;
}

/** Local Stripe, PayPal and NOWPayments, then the file's app wired to them (before its tests). */
export function usePaymentApp(options: { seller?: SellerSettings } = {}): PaymentTestApp {
  const providers = {} as Omit<PaymentTestApp, 't'>;
  const t = useTestApp(
    async () => {
      providers.stripe = await startStripeServer({ ...STRIPE_KEYS, now: () => Math.floor(t.clock.now().getTime() / 1000) });
      providers.paypal = await startPayPalServer({ ...PAYPAL_KEYS, webhookId: PAYPAL_WEBHOOK_ID });
      providers.nowpayments = await startNowPaymentsServer(NOWPAYMENTS_KEYS);
      return {
        config: { seller: options.seller ?? TEST_SELLER },
        payments: {
          stripe: new StripeCheckout({ ...STRIPE_KEYS, apiBase: providers.stripe.base }),
          paypal: new PayPalOrders({ ...PAYPAL_KEYS, apiBase: providers.paypal.base, webhookId: PAYPAL_WEBHOOK_ID }),
          crypto: new NowPaymentsInvoices({ ...NOWPAYMENTS_KEYS, apiBase: providers.nowpayments.base }),
        },
      };
    },
    {
      started: (app) => {
        providers.stripe.setWebhook(`${app.url}/api/payment/stripe/webhook`);
        providers.paypal.setWebhook(`${app.url}/api/payment/paypal/webhook`);
      },
      stopped: async () => {
        await Promise.all([providers.stripe?.close(), providers.paypal?.close(), providers.nowpayments?.close()]);
      },
    },
  );
  return Object.assign(providers, { t }) as PaymentTestApp;
}

type Buyer = { id: number; key: string };

/** Checkout through the local Stripe: the session, then the buyer pays on its page. */
export async function buyWithStripe(p: PaymentTestApp, user: Buyer, offerId: string, complete: Parameters<PaymentTestApp['stripe']['complete']>[1] = {}) {
  const session = await p.t.request('POST', '/api/payment/stripe/session', { key: user.key, json: { offer_id: offerId, user_token: user.key } });
  if (session.status !== 200) throw new Error(`stripe session: ${session.status} ${session.text}`);
  const paid = await p.stripe.complete(session.body.id, complete);
  return { session: session.body, ...paid };
}

/** PayPal: the order, the buyer's approval on PayPal, the capture on return. */
export async function buyWithPayPal(p: PaymentTestApp, user: Buyer, offerId: string) {
  const order = await p.t.request('POST', '/api/payment/paypal/create-order', { key: user.key, json: { offer_id: offerId, user_token: user.key } });
  if (order.status !== 200) throw new Error(`paypal order: ${order.status} ${order.text}`);
  p.paypal.approve(order.body.id);
  const capture = await p.t.request('POST', '/api/payment/paypal/capture-order', { key: user.key, json: { orderID: order.body.id, offer_id: offerId, user_token: user.key } });
  return { order: order.body, capture };
}

/** Crypto: the invoice, then NOWPayments' IPN once the payment is finished. */
export async function buyWithCrypto(p: PaymentTestApp, user: Buyer, offerId: string) {
  const order = await p.t.request('POST', '/api/payment/crypto/create-order', { key: user.key, json: { offer_id: offerId, user_token: user.key } });
  if (order.status !== 200) throw new Error(`crypto order: ${order.status} ${order.text}`);
  const ipn = await p.nowpayments.notify(order.body.id, 'finished');
  return { order: order.body, ipn };
}

/** A user's refund and dispute movements in the ledger, as [kind, reason, amount], oldest first. */
export async function reversalRows(t: TestApp, userId: number) {
  return (await ledgerRows(t, userId)).filter((r) => ['payment_refund', 'payment_dispute', 'dispute_won'].includes(r.reason)).map((r) => [r.kind, r.reason, r.amount]);
}

/** Payment rows of a user (null: the refusals without a user), oldest first. */
export function paymentRows(t: TestApp, userId: number | null) {
  return t.db.models.Payment.findAll({ where: { userId }, order: [['id', 'ASC']] });
}

/** Failed and refused payments: what the admin statistics count as failed payments. */
export function failedPayments(t: TestApp) {
  return t.db.models.Payment.count({ where: { status: ['failed', 'refused'] } });
}
