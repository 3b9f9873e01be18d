import type Router from '@koa/router';
import { apiRouter } from '../app/router.js';
import type { AppState, RouteContext } from '../app/context.js';
import type { AppDeps } from '../app/deps.js';
import { badRequest, notFound, serviceUnavailable } from '../app/errors.js';
import { bodyOf, text } from '../app/input.js';
import { MSG } from '../app/messages.js';
import type { Services } from '../app/services.js';
import { clientKey, enforce } from '../ratelimit/middleware.js';
import { SIGN_IN_CODE_TTL_MS } from './codes.js';
import type { IdentityProvider } from './provider.js';

const BINDING_COOKIE = 'bt_oidc';
/** The state's lifetime (oidc/flow.ts): from the start to the callback. */
const STATE_COOKIE_MS = 10 * 60_000;

/**
 * Third-party sign-in (docs/product.md §1.2 "Login", §1.4): the web app sends the browser to
 * GET /api/auth/{provider}/login?next=/path; the provider sends it back to .../callback, which
 * redirects to /login?provider=...&code=... (or &error=...); the web app then posts the code to
 * .../redeem, with the cookie, for the session key (docs/api.md).
 */
export function oidcRoutes(services: Services, deps: AppDeps): Router<AppState> {
  const router = apiRouter();
  const known = new Set(['google']);
  const loginRule = deps.config.rateLimits.login;

  const providerOf = (ctx: RouteContext): IdentityProvider => {
    const id = ctx.params.provider;
    const provider = deps.identityProviders.find((p) => p.id === id);
    if (provider) return provider;
    if (known.has(id)) throw serviceUnavailable(MSG.providerNotConfigured(id === 'google' ? 'Google' : id));
    throw notFound(MSG.providerUnknown);
  };

  /** The binding cookie: HttpOnly, SameSite=Lax, only under /api/auth/{provider}; null clears it. */
  const setBinding = (ctx: RouteContext, provider: IdentityProvider, value: string | null, maxAge: number) => {
    const path = `/api/auth/${provider.id}`;
    if (value === null) return void ctx.cookies.set(BINDING_COOKIE, null, { path });
    // Secure whenever the API is served over https, including behind a proxy that ends TLS while
    // TRUST_PROXY is unset (ctx.secure is then false): the binding must never travel in clear.
    const secure = ctx.secure || deps.config.apiUrl.startsWith('https://');
    if (secure) ctx.cookies.secure = true;
    ctx.cookies.set(BINDING_COOKIE, value, { httpOnly: true, sameSite: 'lax', path, maxAge, secure, signed: false });
  };

  router.get('/api/auth/:provider/login', async (ctx) => {
    const provider = providerOf(ctx);
    const next = typeof ctx.query.next === 'string' ? ctx.query.next : null;
    const { url, binding } = await services.oidc.start(provider, next);
    setBinding(ctx, provider, binding, STATE_COOKIE_MS);
    ctx.redirect(url.toString());
  });

  router.get('/api/auth/:provider/callback', async (ctx) => {
    const provider = providerOf(ctx);
    const binding = ctx.cookies.get(BINDING_COOKIE, { signed: false });
    const back = await services.oidc.finish(provider, new URLSearchParams(ctx.querystring), binding);
    // A code is bound to a fresh value of the cookie, which lives as long as the code.
    setBinding(ctx, provider, back.binding, SIGN_IN_CODE_TTL_MS);
    ctx.redirect(back.location);
  });

  // The code of the return, exchanged once for the key, by the browser that started the sign-in.
  router.post('/api/auth/:provider/redeem', async (ctx) => {
    // The password login's limit per client, counted apart: a Google sign-in spends no password try.
    if (loginRule) await enforce(deps.rateLimiter, 'login-provider', loginRule, clientKey(ctx));
    const code = text(bodyOf(ctx), 'code');
    const provider = providerOf(ctx);
    const binding = ctx.cookies.get(BINDING_COOKIE, { signed: false });
    setBinding(ctx, provider, null, 0);
    const signedIn = await services.oidc.redeem(provider, code, binding);
    if (!signedIn) throw badRequest(MSG.providerCodeRefused(provider.label));
    ctx.body = { status: 'success', token: signedIn.key, apiKey: signedIn.key, message: MSG.loggedIn, next: signedIn.nextPath };
  });

  return router;
}
