import type Router from '@koa/router';
import type { AppState } from '../app/context.js';
import { badRequest, conflict, notFound } from '../app/errors.js';
import { bodyOf, characterCount, text } from '../app/input.js';
import { currentUser } from '../auth/middleware.js';
import { ATTENTION_STATUSES, presentAttention, type AttentionStatus, type PaymentAttention } from '../payments/attention.js';
import { ADMIN_MSG } from './messages.js';
import { pageOf } from './query.js';

/** `status` of the listing: open (default), resolved or all. */
function statusOf(query: Record<string, unknown>): AttentionStatus {
  const raw = text(query, 'status').toLowerCase();
  if (raw === '') return 'open';
  if (!(ATTENTION_STATUSES as readonly string[]).includes(raw)) throw badRequest(ADMIN_MSG.attentionStatusInvalid(raw));
  return raw as AttentionStatus;
}

function itemIdOf(raw: string): number {
  const id = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(id) || id <= 0) throw badRequest(ADMIN_MSG.attentionIdInvalid);
  return id;
}

/** Payment situations that need the operator (docs/admin.md "Payments to settle"). */
export function registerPaymentAttentionRoutes(router: Router<AppState>, attention: PaymentAttention): void {
  router.get('/payments/attention', async (ctx) => {
    const query = ctx.query as Record<string, unknown>;
    ctx.body = await attention.list(statusOf(query), pageOf(query, 200, 1000));
  });

  router.post('/payments/attention/:id/resolve', async (ctx) => {
    // The body's type first, as on every route that reads one (docs/api.md, content types).
    const body = bodyOf(ctx);
    const id = itemIdOf(ctx.params.id ?? '');
    const note = text(body, 'note');
    if (characterCount(note) > 500) throw badRequest(ADMIN_MSG.attentionNoteTooLong);
    const outcome = await attention.resolve(id, currentUser(ctx).user.id, note === '' ? null : note);
    if (outcome === 'unknown') throw notFound(ADMIN_MSG.attentionNotFound);
    if (outcome === 'already') throw conflict(ADMIN_MSG.attentionAlreadyResolved);
    ctx.body = { status: 'success', detail: ADMIN_MSG.attentionResolved, item: presentAttention(outcome.item, await attention.referenceOf(outcome.item.paymentId)) };
  });
}
