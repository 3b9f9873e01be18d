import type Router from '@koa/router';
import type { Next } from 'koa';
import { apiRouter } from '../app/router.js';
import type { AppContext, AppState } from '../app/context.js';
import type { AppDeps } from '../app/deps.js';
import { guardPath, isUnder } from '../app/paths.js';
import type { Services } from '../app/services.js';
import { currentUser, requireAdmin } from '../auth/middleware.js';
import { LocalStorage } from '../storage/local.js';
import { ArchiveEntries } from '../strategies/archive-entries.js';
import { registerArchiveRoutes } from './archive-routes.js';
import { AdminBacktests } from './backtests.js';
import { DiskExplorer, type DiskRoot } from './disk.js';
import { registerDiskRoutes } from './disk-routes.js';
import { OutputImporter } from './import/import-output.js';
import { InvoiceFiles } from './invoice-files.js';
import { registerMaintenanceRoutes } from './maintenance-routes.js';
import { registerMetricsRoutes } from './metrics-routes.js';
import { AdminUsers } from './users.js';
import { registerUserRoutes } from './users-routes.js';

/**
 * Every path under /api/admin, in any letter case, spelling or trailing slash, is refused to
 * non-admins before routing, so an unknown admin path answers 401/403 like a known one (nothing
 * to probe) and no variant the router might still match slips past.
 */
export async function adminGate(ctx: AppContext, next: Next): Promise<void> {
  if (isUnder(guardPath(ctx), '/api/admin')) return requireAdmin(ctx, next);
  await next();
}

/** The folders the disk explorer shows: the file storage, the CSV library, and the project's own. */
function diskRoots(deps: AppDeps): DiskRoot[] {
  return [
    { key: 'files', label: 'Fichiers (résultats, extractions, stratégies, archives, factures)', scope: 'disk', storage: deps.storage },
    { key: 'library', label: 'Bibliothèque CSV officielle', scope: 'disk', storage: deps.library },
    ...deps.config.projectRoots.map((r) => ({ key: r.key, label: r.label, scope: 'project' as const, storage: new LocalStorage(r.path) })),
  ];
}

/**
 * /api/admin/* (docs/admin.md): one router, so its route list is the whole admin surface (the
 * guard tests read it). adminGate already checked the role; the router checks again.
 */
export function adminRoutes(services: Services, deps: AppDeps): Router<AppState> {
  const router = apiRouter({ prefix: '/api/admin' });
  router.use(requireAdmin);
  router.get('/ping', async (ctx) => {
    ctx.body = { status: 'ok', admin: true, user_id: currentUser(ctx).user.id };
  });
  const users = new AdminUsers({ db: deps.db, clock: deps.clock, ledger: services.ledger, profiles: services.profiles });
  const importer = new OutputImporter({ datasets: services.datasets, uploads: services.uploads, limits: deps.config.imports, log: deps.log });
  registerUserRoutes(router, users);
  registerMetricsRoutes(router, services, deps, new AdminBacktests(deps.db, deps.storage));
  registerArchiveRoutes(router, services, new ArchiveEntries(deps.db, deps.storage, deps.clock));
  registerDiskRoutes(router, new DiskExplorer(diskRoots(deps)));
  registerMaintenanceRoutes(router, services, deps, importer, new InvoiceFiles(deps.storage));
  return router;
}
