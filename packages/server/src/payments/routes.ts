import type Router from '@koa/router';
import { CRYPTO_IPN_PATH, PAYPAL_WEBHOOK_PATH, STRIPE_WEBHOOK_PATH } from '../app/config.js';
import type { AppContext, AppState } from '../app/context.js';
import { apiRouter } from '../app/router.js';
import { badRequest, notFound } from '../app/errors.js';
import { bodyOf, text, textOf } from '../app/input.js';
import type { Services } from '../app/services.js';
import { currentUser, keyOf, requireUser } from '../auth/middleware.js';
import { presentCreditNoteLink } from './credit-notes.js';
import { PAY_MSG } from './messages.js';
import { readRawBody } from './raw-body.js';
import type { Buyer } from './service.js';

/** Provider callbacks are small JSON documents. */
const CALLBACK_LIMIT_BYTES = 256 * 1024;

function buyer(ctx: AppContext): Buyer {
  return { user: currentUser(ctx).user, key: keyOf(ctx) };
}

/** Credit packs and subscriptions through Stripe, PayPal and crypto, invoices (docs/api.md "Payments"). */
export function paymentRoutes(services: Services): Router<AppState> {
  const { payments, paymentCallbacks } = services;
  const router = apiRouter();
  const purchase = (ctx: AppContext) => {
    const body = bodyOf(ctx);
    return { offerId: textOf(body, ['offer_id', 'offerId']), userToken: textOf(body, ['user_token', 'userToken']) };
  };

  router.get('/api/payment/methods', (ctx) => {
    ctx.body = { methods: payments.methods() };
  });

  router.post('/api/payment/stripe/session', requireUser, async (ctx) => {
    ctx.body = await payments.stripeSession(buyer(ctx), purchase(ctx));
  });

  router.post('/api/payment/paypal/create-order', requireUser, async (ctx) => {
    ctx.body = await payments.paypalCreate(buyer(ctx), purchase(ctx));
  });

  router.post('/api/payment/paypal/capture-order', requireUser, async (ctx) => {
    const body = bodyOf(ctx);
    ctx.body = await payments.paypalCapture(buyer(ctx), {
      ...purchase(ctx),
      orderId: textOf(body, ['orderID', 'order_id', 'orderId', 'token']).slice(0, 191),
    });
  });

  router.post('/api/payment/crypto/create-order', requireUser, async (ctx) => {
    ctx.body = await payments.cryptoCreate(buyer(ctx), { ...purchase(ctx), currency: text(bodyOf(ctx), 'currency') });
  });

  router.post(STRIPE_WEBHOOK_PATH, async (ctx) => {
    const raw = await readRawBody(ctx, CALLBACK_LIMIT_BYTES, PAY_MSG.callbackTooLarge);
    ctx.body = await paymentCallbacks.stripe(raw, ctx.get('stripe-signature'));
  });

  router.post(CRYPTO_IPN_PATH, async (ctx) => {
    const raw = await readRawBody(ctx, CALLBACK_LIMIT_BYTES, PAY_MSG.callbackTooLarge);
    ctx.body = await paymentCallbacks.crypto(raw, ctx.get('x-nowpayments-sig'));
  });

  router.post(PAYPAL_WEBHOOK_PATH, async (ctx) => {
    const raw = await readRawBody(ctx, CALLBACK_LIMIT_BYTES, PAY_MSG.callbackTooLarge);
    ctx.body = await paymentCallbacks.paypal(raw, {
      transmissionId: ctx.get('paypal-transmission-id'),
      transmissionTime: ctx.get('paypal-transmission-time'),
      transmissionSig: ctx.get('paypal-transmission-sig'),
      certUrl: ctx.get('paypal-cert-url'),
      authAlgo: ctx.get('paypal-auth-algo'),
    });
  });

  // The payment behind a return link: ?payment=stripe&session_id=… · paypal&token=… · crypto&token=…
  router.get('/api/payment/status', requireUser, async (ctx) => {
    const { method, reference } = returnOf(ctx.query);
    ctx.body = await payments.status(buyer(ctx), method, reference);
  });

  router.post('/api/payment/cancel', requireUser, async (ctx) => {
    const { method, reference } = returnOf(bodyOf(ctx));
    ctx.body = await payments.cancel(buyer(ctx), method, reference);
  });

  router.get('/api/profile/invoices', requireUser, async (ctx) => {
    // credit_notes: added beside the invoices (docs/api.md "Payments").
    const userId = currentUser(ctx).user.id;
    ctx.body = { items: await payments.invoices(buyer(ctx)), credit_notes: (await services.creditNotes.listForUser(userId)).map(presentCreditNoteLink) };
  });

  // A credit note's download link, guarded as the invoice's: the owner's only, the key may be in the query.
  router.get('/api/profile/invoices/credit-notes/:number', requireUser, async (ctx) => {
    const note = await services.creditNotes.forUser(currentUser(ctx).user.id, documentNumber(ctx.params.number, PAY_MSG.creditNoteNotFound));
    if (!note) throw notFound(PAY_MSG.creditNoteNotFound);
    sendPdf(ctx, await services.creditNotes.pdf(note), `avoir-${note.label}.pdf`);
  });

  // A download link: the key may be the token/apiKey query parameter.
  router.get('/api/profile/invoices/:number', requireUser, async (ctx) => {
    const invoice = await services.invoices.forUser(currentUser(ctx).user.id, documentNumber(ctx.params.number, PAY_MSG.invoiceNotFound));
    if (!invoice) throw notFound(PAY_MSG.invoiceNotFound);
    sendPdf(ctx, await services.invoices.pdf(invoice), `facture-${invoice.label}.pdf`);
  });

  return router;
}

/** `payment` (stripe, paypal, crypto) and the provider's reference as the return link carries it. */
function returnOf(source: Record<string, unknown>): { method: string; reference: string } {
  const pick = (name: string) => {
    const value = source[name];
    const first = Array.isArray(value) ? value[0] : value;
    return typeof first === 'string' ? first.trim() : '';
  };
  const method = pick('payment') || pick('method');
  const reference = pick('session_id') || pick('token') || pick('reference');
  if (!['stripe', 'paypal', 'crypto'].includes(method)) throw badRequest(PAY_MSG.returnInvalid);
  if (!reference || reference.length > 191) throw badRequest(PAY_MSG.returnInvalid);
  return { method, reference };
}

/** An invoice's or credit note's number from its path (`42` or `42.pdf`); anything else is 404 with `message`. */
function documentNumber(param: string, message: string): number {
  const raw = String(param).replace(/\.pdf$/i, '');
  if (!/^\d{1,9}$/.test(raw)) throw notFound(message);
  return Number(raw);
}

function sendPdf(ctx: AppContext, pdf: Uint8Array, filename: string): void {
  ctx.type = 'application/pdf';
  ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
  ctx.body = Buffer.from(pdf);
}
