import type Router from '@koa/router';
import type { AppContext, AppState } from '../app/context.js';
import { badRequest } from '../app/errors.js';
import { text, type Body } from '../app/input.js';
import type { Services } from '../app/services.js';
import type { AppDeps } from '../app/deps.js';
import { BREAKDOWN_KINDS } from '../events/breakdowns.js';
import { describeRange, parseRange } from '../events/ranges.js';
import { rebuildEvents } from '../events/rebuild.js';
import { parseKpi, type Kpi } from '../events/statistics.js';
import type { AdminBacktests } from './backtests.js';
import { globalStats } from './global-stats.js';
import { ADMIN_MSG } from './messages.js';
import { intField, optionalInt, pageOf } from './query.js';

const queryOf = (ctx: AppContext) => ctx.query as Body;

/** Statistics and the Backtests tab (docs/admin.md, "Statistics"). */
export function registerMetricsRoutes(router: Router<AppState>, services: Services, deps: AppDeps, backtests: AdminBacktests): void {
  const { statistics } = services;
  const rangeOf = (ctx: AppContext) => parseRange(queryOf(ctx), deps.clock.now());

  router.get('/metrics/overview', async (ctx) => {
    const range = rangeOf(ctx);
    ctx.body = { ...describeRange(range), ...(await statistics.overview(range)) };
  });

  router.get('/metrics/breakdown', async (ctx) => {
    const query = queryOf(ctx);
    const kind = text(query, 'kind');
    if (!kind) throw badRequest(ADMIN_MSG.kindMissing);
    if (!(BREAKDOWN_KINDS as readonly string[]).includes(kind)) throw badRequest(ADMIN_MSG.badKind(kind, BREAKDOWN_KINDS));
    const range = rangeOf(ctx);
    const limit = intField(query, 'limit', { min: 1, max: 100, fallback: 10, message: ADMIN_MSG.badTopLimit });
    ctx.body = { kind, ...describeRange(range), items: await statistics.breakdowns.compute(kind, range, { limit }) };
  });

  const details = async (ctx: AppContext, kpi: Kpi) => {
    const query = queryOf(ctx);
    const range = rangeOf(ctx);
    const page = pageOf(query, 100, 1000);
    const filters = {
      weekday: optionalInt(query, 'weekday', 0, 6, ADMIN_MSG.badWeekday),
      hour: optionalInt(query, 'hour', 0, 23, ADMIN_MSG.badHour),
    };
    ctx.body = { kpi, ...describeRange(range), ...(await statistics.details(kpi, range, page, filters)), ...page };
  };
  router.get('/metrics/details', (ctx) => details(ctx, parseKpi(text(queryOf(ctx), 'kpi'))));
  router.get('/metrics/details/sales', (ctx) => details(ctx, 'total_sales_eur'));
  router.get('/metrics/details/offered', (ctx) => details(ctx, 'credits_offered'));
  router.get('/metrics/details/users_all', (ctx) => details(ctx, 'total_users'));

  router.post('/metrics/reset', async (ctx) => {
    const deleted = await statistics.reset();
    deps.log(`admin: statistics reset by user ${ctx.state.auth?.user.id}: ${deleted} events deleted`);
    ctx.body = { status: 'success', detail: ADMIN_MSG.metricsReset(deleted), deleted };
  });

  router.post('/metrics/rebuild_from_users', async (ctx) => {
    const { before, after } = await rebuildEvents(deps.db, services.events);
    deps.log(`admin: statistics rebuilt: ${after - before} events added (${after} in all)`);
    ctx.body = { status: 'success', detail: ADMIN_MSG.metricsRebuilt(after - before), added: after - before, total: after };
  });

  router.get('/global_stats', async (ctx) => {
    ctx.body = await globalStats(deps.db, deps.clock);
  });

  router.get('/stats/backtest_summary', async (ctx) => {
    ctx.body = await backtests.summary(pageOf(queryOf(ctx), 20, 500));
  });

  router.get('/download_xlsx', async (ctx) => {
    const run = await backtests.find(queryOf(ctx));
    const { name, bytes } = await backtests.workbook(run);
    ctx.attachment(name);
    ctx.type = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    ctx.body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  });
}
