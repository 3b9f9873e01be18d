import { timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import { MSG } from '../app/messages.js';
import type { Metrics } from './metrics.js';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * GET /metrics in the Prometheus text format. With METRICS_TOKEN it wants `Authorization: Bearer
 * <token>`; without one it answers only a client on this machine that came straight, not through
 * a proxy (a reverse proxy on the same host would otherwise make every visitor "local"), so a
 * public deployment never shows its metrics to the world by default (docs/deployment.md, "Metrics").
 */
export function metricsEndpoint(metrics: Metrics, token: () => string | null, behindProxy: () => boolean = () => false) {
  return async (ctx: Context, next: Next) => {
    if (ctx.path !== '/metrics') return next();
    const configured = token();
    const expected = configured ? Buffer.from(`Bearer ${configured}`) : null;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.status = 405;
      ctx.set('Allow', 'GET, HEAD');
      ctx.body = { detail: MSG.methodNotAllowed };
      return;
    }
    if (expected) {
      const given = Buffer.from(ctx.get('authorization'));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        ctx.status = 401;
        ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
        ctx.body = { detail: 'Jeton des métriques manquant ou invalide.' };
        return;
      }
    } else {
      // With TRUST_PROXY the operator says a proxy is in front: a loopback peer is most likely
      // that proxy, whose plainest configuration (nginx's bare proxy_pass) adds none of the
      // headers below, so only the token opens /metrics then.
      const direct = !behindProxy() && !ctx.get('x-forwarded-for') && !ctx.get('forwarded') && !ctx.get('x-real-ip');
      if (!direct || !LOOPBACK.test(ctx.req.socket.remoteAddress ?? '')) {
        ctx.status = 403;
        ctx.body = { detail: 'Métriques réservées à la machine du serveur (définir METRICS_TOKEN pour y accéder à distance).' };
        return;
      }
    }
    const { contentType, body } = await metrics.exposition();
    ctx.set('Cache-Control', 'no-store');
    ctx.type = contentType;
    ctx.body = body;
  };
}
