import type Router from '@koa/router';
import { apiRouter } from '../app/router.js';
import type { AppState } from '../app/context.js';
import type { AppDeps } from '../app/deps.js';
import { bodyOf, text, textOf } from '../app/input.js';
import { fieldsOf } from '../app/multipart.js';
import { MSG } from '../app/messages.js';
import type { Services } from '../app/services.js';
import { SignInAttempts } from '../auth/attempts.js';
import { signupReference } from '../auth/accounts.js';
import { currentUser, requireUser } from '../auth/middleware.js';
import { normalizeEmail } from '../auth/rules.js';
import { enforce } from '../ratelimit/middleware.js';
import type { User } from '../db/models.js';
import { presentUser } from './presenter.js';

const HISTORY_LIMIT = 50;

/** The signed-in user's own account (docs/product.md §1.7, docs/product.md §2.7 "Profile"). */
export function userRoutes(services: Services, deps: AppDeps): Router<AppState> {
  const { profiles, ledger, subscriptions, invoices } = services;
  const router = apiRouter();
  // A check of the current password counts as a sign-in attempt of the account (auth/attempts.ts).
  const signIns = new SignInAttempts(deps.rateLimiter, deps.config.rateLimits.loginAccount);
  const passwordChecks = (ctx: { ip: string }) => ({ gate: signIns, clientIp: ctx.ip });
  // The routes that check the current password share /api/login's window, per account.
  const limitPasswordChecks = async (userId: number) => {
    const loginRule = deps.config.rateLimits.login;
    if (loginRule) await enforce(deps.rateLimiter, 'login', loginRule, `account:${userId}`);
  };

  // The request's user is already loaded (authentication, or the update's own re-read).
  const me = async (user: User) => {
    const history = await ledger.history(user.id, HISTORY_LIMIT);
    // Read only for an unverified address (a new account, or a changed address): the profile's card
    // promises the sign-up credits only to an account that never had them.
    const signupCreditsPending = !user.emailVerified && !(await ledger.granted(signupReference(user.id)));
    return presentUser(user, history, deps.clock.now(), await invoices.forLedger(history), signupCreditsPending);
  };

  router.get('/api/me', requireUser, async (ctx) => {
    ctx.body = await me(currentUser(ctx).user);
  });

  router.post('/api/profile/update', requireUser, async (ctx) => {
    const body = await fieldsOf(ctx, deps.config.bodyLimitBytes);
    const email = text(body, 'email');
    const { user: caller, keyId } = currentUser(ctx);
    // A new address is mailed a verification link: the same per-account limit as
    // resend-verification, or changing the address back and forth mailed any address at will.
    const verifyRule = deps.config.rateLimits.verify;
    if (verifyRule && email && normalizeEmail(email) !== caller.email) await enforce(deps.rateLimiter, 'verify', verifyRule, String(caller.id));
    const { user, verification } = await profiles.update(caller, {
      email,
      fullName: textOf(body, ['full_name', 'name']),
      password: textOf(body, ['password', 'current_password'], { trim: false }),
    }, keyId, passwordChecks(ctx));
    ctx.body = {
      status: 'success',
      message: MSG.profileUpdated,
      user: await me(user),
      ...(verification ? { emailed: verification.emailed, ...(verification.verifyUrl ? { verifyUrl: verification.verifyUrl } : {}) } : {}),
    };
  });

  router.post('/api/profile/set-password', requireUser, async (ctx) => {
    const body = bodyOf(ctx);
    const { user, keyId } = currentUser(ctx);
    // The current password is checked here too: counted as sign-in attempts of the account (this
    // window, and its failures: passwordChecks), or a stolen key could guess it at the API's rate
    // (300 a minute) where /api/login allows 10.
    await limitPasswordChecks(user.id);
    await profiles.setPassword(user, keyId, {
      currentPassword: text(body, 'current_password', { trim: false }),
      newPassword: text(body, 'new_password', { trim: false }),
    }, passwordChecks(ctx));
    ctx.body = { status: 'success', message: MSG.passwordChanged };
  });

  router.post('/api/profile/unsubscribe', requireUser, async (ctx) => {
    const { until } = await subscriptions.unsubscribe(currentUser(ctx).user);
    const day = until ? until.toISOString().slice(0, 10).split('-').reverse().join('/') : '—';
    ctx.body = { status: 'success', message: MSG.unsubscribed(day), renew_date: until ? until.toISOString() : null };
  });

  router.post('/api/user/delete_account', requireUser, async (ctx) => {
    // JSON (or a form) `{current_password}`, as set-password: the owner's proof, counted like
    // set-password's (this window per account, and a wrong password as a failed sign-in), or a
    // stolen key deleted the account. An account without a password gives none: checkOwner.
    const body = bodyOf(ctx);
    const { user, keyId } = currentUser(ctx);
    await limitPasswordChecks(user.id);
    await profiles.deleteOwnAccount(user, keyId, textOf(body, ['current_password', 'password'], { trim: false }), passwordChecks(ctx));
    ctx.body = { status: 'success', message: MSG.accountDeleted };
  });

  return router;
}
