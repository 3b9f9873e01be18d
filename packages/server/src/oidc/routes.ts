import type Router from '@koa/router';
import { apiRouter } from '../app/router.js';
import type { AppState, RouteContext } from '../app/context.js';
import type { AppDeps } from '../app/deps.js';
import { notFound, serviceUnavailable } from '../app/errors.js';
import { MSG } from '../app/messages.js';
import type { Services } from '../app/services.js';
import type { IdentityProvider } from './provider.js';

const BINDING_COOKIE = 'bt_oidc';

/**
 * Third-party sign-in (docs/product.md §1.2 "Login", §1.4): the web app sends the browser to
 * GET /api/auth/{provider}/login?next=/path; the provider sends it back to .../callback, which
 * redirects to /login?provider=...&apiKey=... (or &error=...).
 */
export function oidcRoutes(services: Services, deps: AppDeps): Router<AppState> {
  const router = apiRouter();
  const known = new Set(['google']);

  const providerOf = (ctx: RouteContext): IdentityProvider => {
    const id = ctx.params.provider;
    const provider = deps.identityProviders.find((p) => p.id === id);
    if (provider) return provider;
    if (known.has(id)) throw serviceUnavailable(MSG.providerNotConfigured(id === 'google' ? 'Google' : id));
    throw notFound(MSG.providerUnknown);
  };

  router.get('/api/auth/:provider/login', async (ctx) => {
    const provider = providerOf(ctx);
    const next = typeof ctx.query.next === 'string' ? ctx.query.next : null;
    const { url, binding } = await services.oidc.start(provider, next);
    // Secure whenever the API is served over https, including behind a proxy that ends TLS while
    // TRUST_PROXY is unset (ctx.secure is then false): the binding must never travel in clear.
    const secure = ctx.secure || deps.config.apiUrl.startsWith('https://');
    if (secure) ctx.cookies.secure = true;
    ctx.cookies.set(BINDING_COOKIE, binding, {
      httpOnly: true,
      sameSite: 'lax',
      path: `/api/auth/${provider.id}`,
      maxAge: 10 * 60_000,
      secure,
      signed: false,
    });
    ctx.redirect(url.toString());
  });

  router.get('/api/auth/:provider/callback', async (ctx) => {
    const provider = providerOf(ctx);
    const binding = ctx.cookies.get(BINDING_COOKIE, { signed: false });
    ctx.cookies.set(BINDING_COOKIE, null, { path: `/api/auth/${provider.id}` });
    ctx.redirect(await services.oidc.finish(provider, new URLSearchParams(ctx.querystring), binding));
  });

  return router;
}
