import type Router from '@koa/router';
import { apiRouter } from '../app/router.js';
import { IMPORT_PATH } from '../app/config.js';
import type { AppState } from '../app/context.js';
import type { AppDeps } from '../app/deps.js';
import { bodyOf, text, textOf } from '../app/input.js';
import { readForm } from '../app/multipart.js';
import type { Services } from '../app/services.js';
import { currentUser, requireUser } from '../auth/middleware.js';
import type { UserStrategy } from '../db/models.js';
import { signatureOf, uiOf } from './contract.js';
import { STRATEGY_MESSAGES, type UserStrategies } from './service.js';


/** A personal strategy as docs/product.md §2.3 "User strategy" describes it (created_at in seconds). */
export function presentStrategy(row: UserStrategy, strategies: UserStrategies) {
  const shape = strategies.shapeOf(row);
  const ui = uiOf(shape);
  return {
    id: row.id,
    strategy_id: row.id,
    display_name: row.displayName,
    display_filename: row.displayFilename,
    source: row.source,
    sl_mode: row.slMode,
    created_at: Math.floor(row.createdAt.getTime() / 1000),
    comment: row.comment ?? '',
    comment_user: row.commentUser ?? '',
    detect_function: row.detectName,
    entry_mode: row.entryMode,
    filters: shape.filters,
    params: shape.params,
    signature: signatureOf(shape),
    meta: { comment: row.comment ?? '', comment_user: row.commentUser ?? '', user_input: row.userInput ?? '', sl_mode: row.slMode, ui },
  };
}

/** Personal strategies (docs/product.md §2.7): import, list, download, rename, note, delete. */
export function strategyRoutes(services: Services, deps: AppDeps): Router<AppState> {
  const { strategies } = services;
  const router = apiRouter();
  const present = (row: UserStrategy) => presentStrategy(row, strategies);

  router.post(IMPORT_PATH, requireUser, async (ctx) => {
    const { user } = currentUser(ctx);
    const limit = deps.config.strategyLimitBytes;
    const { fields, files } = await readForm(ctx, limit + 64 * 1024, STRATEGY_MESSAGES.tooLarge(limit));
    const file = files.file ?? files.py_file ?? Object.values(files)[0];
    const row = await strategies.import(user, {
      filename: file?.filename ?? '',
      bytes: file?.bytes ?? null,
      slMode: text(fields, 'sl_mode'),
      commentUser: textOf(fields, ['comment_user', 'note', 'comment']),
    });
    ctx.status = 201;
    ctx.body = { status: 'success', message: STRATEGY_MESSAGES.imported, strategy: present(row), strategy_id: row.id, id: row.id };
  });

  router.get('/api/user/strategies', requireUser, async (ctx) => {
    const items = (await strategies.list(currentUser(ctx).user.id)).map(present);
    ctx.body = { items, total: items.length };
  });

  router.get('/api/user/strategies/:id/download', requireUser, async (ctx) => {
    const row = await strategies.owned(currentUser(ctx).user.id, String(ctx.params.id));
    const source = await strategies.source(row);
    ctx.set('Content-Disposition', `attachment; filename="${row.displayFilename}"`);
    ctx.type = 'text/x-python; charset=utf-8';
    ctx.body = source;
  });

  router.patch('/api/user/strategies/:id/rename', requireUser, async (ctx) => {
    const row = await strategies.owned(currentUser(ctx).user.id, String(ctx.params.id));
    const renamed = await strategies.rename(row, textOf(bodyOf(ctx), ['display_name', 'name']));
    ctx.body = { status: 'success', message: STRATEGY_MESSAGES.renamed, strategy: { id: renamed.id, display_name: renamed.displayName, display_filename: renamed.displayFilename } };
  });

  router.patch('/api/user/strategies/:id/note', requireUser, async (ctx) => {
    const row = await strategies.owned(currentUser(ctx).user.id, String(ctx.params.id));
    const updated = await strategies.note(row, text(bodyOf(ctx), 'comment_user', { trim: false }).trim());
    ctx.body = { status: 'success', message: STRATEGY_MESSAGES.noteSaved, meta: present(updated).meta };
  });

  router.delete('/api/user/strategies/:id', requireUser, async (ctx) => {
    const row = await strategies.owned(currentUser(ctx).user.id, String(ctx.params.id));
    await strategies.remove(row);
    ctx.body = { status: 'success', message: STRATEGY_MESSAGES.deleted, id: row.id };
  });

  return router;
}
