import type Router from '@koa/router';
import { apiRouter } from '../app/router.js';
import type { AppState } from '../app/context.js';
import type { AppDeps } from '../app/deps.js';
import type { Services } from '../app/services.js';
import { text } from '../app/input.js';
import { sheetOptions } from '../results/routes.js';
import { Results } from '../results/service.js';

/** Public calls of docs/product.md §1.7: the top strategies and their workbooks, without a key. */
export function publicRoutes(services: Services, _deps: AppDeps): Router<AppState> {
  const { topStrategies } = services;
  const router = apiRouter();

  router.get('/api/top-strategy', async (ctx) => {
    ctx.body = await topStrategies.top();
  });

  router.get('/api/public/xlsx/meta', async (ctx) => {
    ctx.body = await topStrategies.meta(Results.folderParam(ctx.query));
  });

  router.get('/api/public/xlsx/sheet', async (ctx) => {
    const sheet = text(ctx.query, 'sheet');
    ctx.body = await topStrategies.sheet(Results.folderParam(ctx.query), sheet, sheetOptions(ctx.query));
  });

  return router;
}
