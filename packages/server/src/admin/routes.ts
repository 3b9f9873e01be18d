import type Router from '@koa/router';
import { apiRouter } from '../app/router.js';
import type { Next } from 'koa';
import type { AppContext, AppState } from '../app/context.js';
import type { AppDeps } from '../app/deps.js';
import { badRequest, notFound } from '../app/errors.js';
import { bodyOf, text } from '../app/input.js';
import { guardPath, isUnder } from '../app/paths.js';
import type { Services } from '../app/services.js';
import { currentUser, requireAdmin } from '../auth/middleware.js';
import { LedgerError } from '../credits/ledger.js';

/**
 * Every path under /api/admin, in any letter case, spelling or trailing slash, is refused to
 * non-admins before routing, so an unknown admin path answers 401/403 like a known one (nothing
 * to probe) and no variant the router might still match slips past.
 */
export async function adminGate(ctx: AppContext, next: Next): Promise<void> {
  if (isUnder(guardPath(ctx), '/api/admin')) return requireAdmin(ctx, next);
  await next();
}

/** Body {user_id, amount (default 1)} of the credit buttons (spec 3 §7): a whole number 1..1000. */
function creditChange(ctx: AppContext): { userId: number; amount: number } {
  const body = bodyOf(ctx);
  const userId = Number(text(body, 'user_id'));
  const rawAmount = text(body, 'amount');
  const amount = rawAmount === '' ? 1 : Number(rawAmount);
  if (!Number.isInteger(userId) || userId <= 0) throw badRequest('Utilisateur manquant (user_id).');
  if (!Number.isInteger(amount) || amount < 1 || amount > 1000) throw badRequest('Montant invalide (un entier de 1 à 1000).');
  return { userId, amount };
}

/** /api/admin/* (spec 3 grows it); adminGate already checked the role, the router checks again. */
export function adminRoutes(services: Services, _deps: AppDeps): Router<AppState> {
  const router = apiRouter({ prefix: '/api/admin' });
  router.use(requireAdmin);
  router.get('/ping', async (ctx) => {
    ctx.body = { status: 'ok', admin: true, user_id: currentUser(ctx).user.id };
  });
  // Credits go through the ledger like every other change, as an 'admin' grant.
  router.post('/add_credit', async (ctx) => {
    const { userId, amount } = creditChange(ctx);
    let balance: number;
    try {
      ({ balance } = await services.ledger.grant(userId, amount, 'admin', { meta: { by: currentUser(ctx).user.id } }));
    } catch (err) {
      // The ledger refuses an unknown or deleted account.
      if (err instanceof LedgerError) throw notFound('Utilisateur introuvable.');
      throw err;
    }
    ctx.body = { status: 'success', detail: `${amount} crédit(s) ajouté(s).`, user_id: userId, credits: balance };
  });
  return router;
}
