import { SIGNUP_CREDITS } from '@bt/core/catalogue';
import type Router from '@koa/router';
import { apiRouter } from '../app/router.js';
import type { AppState } from '../app/context.js';
import type { AppDeps } from '../app/deps.js';
import { badRequest } from '../app/errors.js';
import { bodyOf, text, textOf } from '../app/input.js';
import { MSG } from '../app/messages.js';
import type { Services } from '../app/services.js';
import { enforce, rateLimit } from '../ratelimit/middleware.js';
import type { VerificationOutcome } from './accounts.js';
import { SignInAttempts } from './attempts.js';
import { currentUser, requireUser } from './middleware.js';

/**
 * The profile page's query after a verification link: `verified=1` alone means the sign-up
 * credits were just granted (docs/product.md); `credits` says why none were.
 */
const VERIFIED_QUERY: Readonly<Record<VerificationOutcome, string>> = {
  credited: 'verified=1',
  'already-credited': 'verified=1&credits=already',
  'screen-no-credits': 'verified=1&credits=screen',
  invalid: 'verified=0',
};

/** Registration, login, e-mail verification, password reset (docs/product.md §1.7). */
export function authRoutes(services: Services, deps: AppDeps): Router<AppState> {
  const { accounts } = services;
  const { rateLimits } = deps.config;
  const limited = (bucket: Exclude<keyof typeof rateLimits, 'loginAccount'>) => {
    const rule = rateLimits[bucket];
    return rule ? rateLimit(deps.rateLimiter, bucket, rule) : async (_: unknown, next: () => Promise<unknown>) => next();
  };
  const router = apiRouter();
  const signIns = new SignInAttempts(deps.rateLimiter, rateLimits.loginAccount);

  router.post('/api/register', limited('register'), async (ctx) => {
    const body = bodyOf(ctx);
    const { key, verification } = await accounts.register({
      firstName: textOf(body, ['first_name', 'firstName']),
      lastName: textOf(body, ['last_name', 'lastName']),
      email: text(body, 'email'),
      username: text(body, 'username'),
      password: text(body, 'password', { trim: false }),
    });
    ctx.status = 201;
    ctx.body = {
      status: 'success',
      token: key,
      apiKey: key,
      message: verification.verifyUrl && deps.config.screenVerification !== 'credits' ? MSG.registeredScreenLink : MSG.registered(SIGNUP_CREDITS),
      emailed: verification.emailed,
      ...(verification.verifyUrl ? { verifyUrl: verification.verifyUrl } : {}),
    };
  });

  router.post('/api/login', limited('login'), async (ctx) => {
    const body = bodyOf(ctx);
    const { key } = await accounts.login(textOf(body, ['identifier', 'email', 'username']), text(body, 'password', { trim: false }), { gate: signIns, clientIp: ctx.ip });
    ctx.body = { status: 'success', token: key, apiKey: key, message: MSG.loggedIn };
  });

  // Ends this session on the server: the key stops working at once, whoever holds a copy.
  router.post('/api/logout', requireUser, async (ctx) => {
    await services.sessions.revoke(currentUser(ctx).keyId);
    ctx.body = { status: 'success', message: MSG.loggedOut };
  });

  router.post('/api/auth/resend-verification', requireUser, async (ctx) => {
    const { user } = currentUser(ctx);
    if (rateLimits.verify) await enforce(deps.rateLimiter, 'verify', rateLimits.verify, String(user.id));
    const delivery = await accounts.resendVerification(user);
    ctx.body = delivery.emailed
      ? { status: 'success', emailed: true, message: MSG.verificationResent }
      : { status: 'success', emailed: false, verifyUrl: delivery.verifyUrl, message: MSG.mailNotConfigured };
  });

  // The link of the verification e-mail: always a redirect to the profile page, which says what
  // the link did (docs/api.md).
  router.get('/api/auth/verify-email/:token', async (ctx) => {
    const outcome = await accounts.verifyEmail(ctx.params.token);
    ctx.redirect(new URL(`/profile?${VERIFIED_QUERY[outcome]}`, deps.config.publicUrl).toString());
  });

  router.post('/api/auth/generate-reset-token', limited('reset'), async (ctx) => {
    const email = text(bodyOf(ctx), 'email');
    if (!email) throw badRequest(MSG.emailRequired);
    // The same limit per account as per client: spread over many clients, requests mailed the
    // owner without end, each cancelling the link before it (docs/security.md, "Sessions").
    const rule = rateLimits.reset;
    await accounts.requestPasswordReset(email, rule ? async (userId) => (await deps.rateLimiter.hit('reset-account', String(userId), rule)).allowed : undefined);
    ctx.body = { status: 'success', message: MSG.resetRequested };
  });

  router.post('/api/auth/reset-password/:token', limited('reset'), async (ctx) => {
    const body = bodyOf(ctx);
    const password = textOf(body, ['new_password', 'password'], { trim: false });
    const confirmation = textOf(body, ['confirm_password', 'password_confirmation'], { trim: false });
    if (!password) throw badRequest(MSG.newPasswordRequired);
    if (confirmation && confirmation !== password) throw badRequest(MSG.passwordsDoNotMatch);
    await accounts.resetPassword(ctx.params.token, password);
    ctx.body = { status: 'success', message: MSG.passwordReset };
  });

  return router;
}
