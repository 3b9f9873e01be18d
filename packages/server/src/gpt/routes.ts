import type Router from '@koa/router';
import { apiRouter } from '../app/router.js';
import type { AppState } from '../app/context.js';
import type { AppDeps } from '../app/deps.js';
import { bodyOf, text } from '../app/input.js';
import type { Services } from '../app/services.js';
import { currentUser, requireUser } from '../auth/middleware.js';
import { presentStrategy } from '../strategies/routes.js';
import { GPT_MESSAGES } from './service.js';

/** AI generation of a personal strategy (docs/product.md §2.7): a configured chat model, or the built-in generator. */
export function gptRoutes(services: Services, _deps: AppDeps): Router<AppState> {
  const { generator, strategies } = services;
  const router = apiRouter();
  const present = (row: Parameters<typeof presentStrategy>[0]) => presentStrategy(row, strategies);

  // Which generator answers (no key needed, nothing secret: the generation answer says it too), so
  // the web app names it before the first generation: 'IA' only when a chat model is configured.
  router.get('/api/gpt/provider', (ctx) => {
    ctx.body = { provider: generator.provider };
  });

  router.post('/api/gpt/generate-strategy', requireUser, async (ctx) => {
    const body = bodyOf(ctx);
    const result = await generator.generate(currentUser(ctx).user, text(body, 'prompt'), text(body, 'sl_mode'));
    ctx.status = 201;
    ctx.body = {
      success: true,
      status: 'success',
      message: GPT_MESSAGES.generated,
      strategy_id: result.strategy.id,
      id: result.strategy.id,
      comment: result.comment,
      provider: result.provider,
      attempts: result.attempts,
      strategy: present(result.strategy),
    };
  });

  return router;
}
