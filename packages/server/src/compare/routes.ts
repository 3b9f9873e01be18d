import type Router from '@koa/router';
import { apiRouter } from '../app/router.js';
import type { AppState } from '../app/context.js';
import type { AppDeps } from '../app/deps.js';
import { bodyOf } from '../app/input.js';
import type { Services } from '../app/services.js';
import { currentUser, requireUser } from '../auth/middleware.js';
import { labelOf } from './service.js';

/** The comparator (docs/product.md §2.7 "Comparator"): only the user's own analyses. */
export function compareRoutes(services: Services, _deps: AppDeps): Router<AppState> {
  const { comparator, results } = services;
  const router = apiRouter();

  router.get('/api/compare/options', requireUser, async (ctx) => {
    // The analyses a user may compare are their finished results.
    const runs = await results.list(currentUser(ctx).user.id);
    ctx.body = {
      items: runs.map((r) => ({
        id: r.id,
        label: labelOf(r),
        folder: r.folder,
        pair: r.symbol,
        symbol: r.symbol,
        period: `${r.startDate} → ${r.endDate}`,
        timeframe: r.timeframe,
        strategy: r.strategy,
        strategy_label: r.strategyLabel,
        trades_count: r.trades,
        trades: r.trades,
        winrate_tp1: r.winrateTp1,
        tp1_winrate: r.winrateTp1,
        winrate: r.winrateTp1,
        winrate_tp2: r.winrateTp2,
      })),
    };
  });

  router.post('/api/compare/data', requireUser, async (ctx) => {
    ctx.body = await comparator.data(currentUser(ctx).user.id, bodyOf(ctx));
  });

  return router;
}
