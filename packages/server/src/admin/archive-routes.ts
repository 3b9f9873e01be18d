import type Router from '@koa/router';
import type { AppContext, AppState } from '../app/context.js';
import { text, type Body } from '../app/input.js';
import type { Services } from '../app/services.js';
import { archiveType, type ArchiveEntries } from '../strategies/archive-entries.js';
import { ADMIN_MSG } from './messages.js';
import { boolField, pageOf } from './query.js';

const queryOf = (ctx: AppContext) => ctx.query as Body;

/** The Strategies tab: the archive of every import and generation (docs/admin.md, "Strategy archive"). */
export function registerArchiveRoutes(router: Router<AppState>, services: Services, entries: ArchiveEntries): void {
  router.get('/strategies/overview', async (ctx) => {
    const [gpt, imported] = await Promise.all([services.archive.overview('gpt'), services.archive.overview('import')]);
    ctx.body = { data: { gpt, import: imported } };
  });

  router.get('/strategies/recent', async (ctx) => {
    const query = queryOf(ctx);
    const type = archiveType(text(query, 'type'));
    // The console asks 5, then 10 at a time from where it stopped: the cap stays per page, not per list.
    const page = pageOf(query, 5, 100);
    const includeDeleted = boolField(query, 'include_deleted', false, ADMIN_MSG.includeDeletedInvalid);
    ctx.body = { type, items: await entries.recent(type, page, includeDeleted) };
  });

  router.get('/strategies/detail', async (ctx) => {
    ctx.body = await entries.detail(await entries.find(queryOf(ctx), { includeDeleted: true }));
  });

  router.get('/strategies/archive/download', async (ctx) => {
    const { name, bytes } = await entries.file(await entries.find(queryOf(ctx), { includeDeleted: true }));
    ctx.attachment(name);
    ctx.type = name.endsWith('.py') ? 'text/x-python; charset=utf-8' : 'application/octet-stream';
    ctx.body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  });

  router.delete('/strategies/archive', async (ctx) => {
    const row = await entries.find(queryOf(ctx), { includeDeleted: true });
    await entries.softDelete(row);
    ctx.body = { status: 'success', detail: ADMIN_MSG.archiveDeleted, id: row.id };
  });

  router.patch('/strategies/archive/restore-all', async (ctx) => {
    const type = archiveType(text(queryOf(ctx), 'type'));
    const restored = await entries.restoreAll(type);
    ctx.body = { status: 'success', detail: ADMIN_MSG.archiveRestored(restored), type, restored };
  });
}
