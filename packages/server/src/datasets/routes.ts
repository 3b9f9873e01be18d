import type Router from '@koa/router';
import { findSymbol, LIBRARY_TIMEFRAMES, parseTimeframe } from '@bt/core/catalogue';
import { createHash } from 'node:crypto';
import type { AppState } from '../app/context.js';
import { apiRouter } from '../app/router.js';
import type { AppDeps } from '../app/deps.js';
import { badRequest } from '../app/errors.js';
import { text } from '../app/input.js';
import type { Services } from '../app/services.js';
import { BACKTEST_MESSAGES } from '../backtests/request.js';
import { presentAvailability } from './availability.js';

/** Browsers and proxies may keep the list this long (the library changes monthly, docs/product.md §2.9). */
const MAX_AGE_SECONDS = 300;

/**
 * GET /api/datasets (public): what the official library holds, per symbol and timeframe, so the
 * backtest form lists only what has data and its presets land on it (docs/api.md).
 */
export function datasetRoutes(services: Services, _deps: AppDeps): Router<AppState> {
  const { datasets } = services;
  // apiRouter: case-sensitive as every API router (a plain Router answered /API/DATASETS too).
  const router = apiRouter();

  router.get('/api/datasets', async (ctx) => {
    const symbolText = text(ctx.query, 'symbol');
    const tfText = text(ctx.query, 'timeframe');
    const symbol = symbolText ? findSymbol(symbolText)?.symbol : undefined;
    if (symbolText && !symbol) throw badRequest(BACKTEST_MESSAGES.unknownSymbol(symbolText.slice(0, 40)));
    let timeframe: string | undefined;
    if (tfText) {
      try {
        timeframe = parseTimeframe(tfText);
      } catch {
        timeframe = undefined;
      }
      if (!timeframe || !LIBRARY_TIMEFRAMES.includes(timeframe as (typeof LIBRARY_TIMEFRAMES)[number])) {
        throw badRequest(BACKTEST_MESSAGES.officialTimeframe(tfText.slice(0, 20)));
      }
    }
    const all = await datasets.availability();
    const symbols = all
      .filter((s) => !symbol || s.symbol === symbol)
      .map((s) => ({ ...s, timeframes: s.timeframes.filter((t) => !timeframe || t.timeframe === timeframe) }))
      .filter((s) => s.timeframes.length > 0)
      .map(presentAvailability);
    const body = { symbols, instruments: symbols.length, timeframes: [...LIBRARY_TIMEFRAMES] };
    const etag = `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 22)}"`;
    ctx.set('Cache-Control', `public, max-age=${MAX_AGE_SECONDS}`);
    ctx.set('ETag', etag);
    if (ctx.get('If-None-Match') === etag) {
      ctx.status = 304;
      return;
    }
    ctx.body = body;
  });

  return router;
}
