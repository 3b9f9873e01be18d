import helmet from 'koa-helmet';
import type { Middleware } from 'koa';

export interface SecurityHeadersOptions {
  /** Origins the app may call besides its own (an API served from another host). */
  connectSrc: string[];
  /** Set Strict-Transport-Security (only when the product is served over https). */
  hsts: boolean;
}

/**
 * The headers of every answer (docs/security.md, "HTTP headers"): no framing by anyone
 * (X-Frame-Options DENY and CSP frame-ancestors 'none'), no Referer sent anywhere (download
 * links carry a key), and a Content-Security-Policy for the app: scripts and fonts from this
 * origin only; inline styles allowed because React `style` attributes and Observable Plot's
 * `<style>` elements use them; images also from data:/blob: (chart exports, avatars).
 */
export function securityHeaders(options: SecurityHeadersOptions): Middleware {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...options.connectSrc],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: options.hsts ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    // The app embeds nothing cross-origin; leaving COEP off keeps third-party-free pages simple.
    crossOriginEmbedderPolicy: false,
  });
}
