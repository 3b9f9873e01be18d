import type Router from '@koa/router';
import type { AppState } from '../app/context.js';
import { badRequest } from '../app/errors.js';
import { bodyOf, text } from '../app/input.js';
import { currentUser } from '../auth/middleware.js';
import { ADMIN_MSG } from './messages.js';
import { intField, pageOf, userIdOf } from './query.js';
import { USER_SORTS, type AdminUsers, type UserSort } from './users.js';

/** Body {user_id, amount (default 1)} of the credit buttons: a whole number 1..1000. */
function creditChange(body: Record<string, unknown>): { userId: number; amount: number } {
  const userId = userIdOf(text(body, 'user_id'));
  const amount = intField(body, 'amount', { min: 1, max: 1000, fallback: 1, message: ADMIN_MSG.amountInvalid });
  return { userId, amount };
}

/** `sort` of the user list: one of USER_SORTS, newest when absent. */
function userSortOf(query: Record<string, unknown>): UserSort {
  const raw = text(query, 'sort');
  if (raw === '') return 'newest';
  if (!(USER_SORTS as readonly string[]).includes(raw)) throw badRequest(ADMIN_MSG.userSortInvalid(raw, USER_SORTS));
  return raw as UserSort;
}

/** Users and history (docs/admin.md, "Users and history"). */
export function registerUserRoutes(router: Router<AppState>, users: AdminUsers): void {
  router.get('/get_users', async (ctx) => {
    const query = ctx.query as Record<string, unknown>;
    ctx.body = await users.list(pageOf(query, 500, 5000), text(query, 'q').slice(0, 100), userSortOf(query));
  });

  router.get('/user_history/:user_id', async (ctx) => {
    ctx.body = await users.history(userIdOf(ctx.params.user_id), pageOf(ctx.query as Record<string, unknown>, 200, 1000));
  });

  // Credits go through the ledger like every other change: an 'admin' grant or spend.
  router.post('/add_credit', async (ctx) => {
    const { userId, amount } = creditChange(bodyOf(ctx));
    const credits = await users.addCredits(userId, amount, currentUser(ctx).user.id);
    ctx.body = { status: 'success', detail: ADMIN_MSG.creditsAdded(amount), user_id: userId, credits };
  });

  router.post('/remove_credit', async (ctx) => {
    const { userId, amount } = creditChange(bodyOf(ctx));
    const credits = await users.removeCredits(userId, amount, currentUser(ctx).user.id);
    ctx.body = { status: 'success', detail: ADMIN_MSG.creditsRemoved(amount), user_id: userId, credits };
  });

  router.post('/delete_user', async (ctx) => {
    const userId = userIdOf(text(bodyOf(ctx), 'user_id'));
    await users.delete(userId, currentUser(ctx).user);
    ctx.body = { status: 'success', detail: ADMIN_MSG.userDeleted, user_id: userId };
  });

  router.get('/global_history', async (ctx) => {
    ctx.body = await users.globalHistory(pageOf(ctx.query as Record<string, unknown>, 200, 5000));
  });

  router.post('/history/reset', async (ctx) => {
    const scope = text(bodyOf(ctx), 'scope') || 'all';
    if (scope !== 'all') throw badRequest(ADMIN_MSG.historyScopeInvalid);
    const { hidden } = await users.resetHistory();
    ctx.body = { status: 'success', detail: ADMIN_MSG.historyReset, scope, hidden };
  });
}
