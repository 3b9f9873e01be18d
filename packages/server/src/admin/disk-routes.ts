import type Router from '@koa/router';
import type { AppContext, AppState } from '../app/context.js';
import { text, type Body } from '../app/input.js';
import type { DiskExplorer } from './disk.js';
import { ADMIN_MSG } from './messages.js';
import { intField } from './query.js';

const queryOf = (ctx: AppContext) => ctx.query as Body;

/** The Disk tab, read-only (docs/admin.md, "Disk explorer"). */
export function registerDiskRoutes(router: Router<AppState>, explorer: DiskExplorer): void {
  router.get('/fs/roots', async (ctx) => {
    ctx.body = { roots: await explorer.list() };
  });

  router.get('/fs/tree', async (ctx) => {
    const query = queryOf(ctx);
    const root = explorer.root(text(query, 'root'));
    const message = ADMIN_MSG.treeParamsInvalid;
    ctx.body = await explorer.tree(root, text(query, 'path', { trim: false }), {
      depth: intField(query, 'depth', { min: 0, max: 5, fallback: 0, message }),
      limit: intField(query, 'limit', { min: 10, max: 5000, fallback: 500, message }),
      offset: intField(query, 'offset', { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: 0, message }),
    });
  });

  router.get('/fs/download', async (ctx) => {
    const query = queryOf(ctx);
    const root = explorer.root(text(query, 'root'));
    const file = await explorer.file(root, text(query, 'path', { trim: false }));
    ctx.attachment(file.name);
    if (file.bytes !== null) ctx.length = file.bytes;
    ctx.body = file.stream;
  });
}
