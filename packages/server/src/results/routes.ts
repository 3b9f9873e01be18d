import type Router from '@koa/router';
import { apiRouter } from '../app/router.js';
import { workbookFileName } from '@bt/core/report';
import type { AppState } from '../app/context.js';
import type { AppDeps } from '../app/deps.js';
import { notFound } from '../app/errors.js';
import type { Services } from '../app/services.js';
import { scalar, text, type Body } from '../app/input.js';
import { currentUser, requireUser } from '../auth/middleware.js';
import type { BacktestRun } from '../db/models.js';
import { slRateOf } from './summary.js';
import { listingRequest } from './listing.js';
import { RESULT_MESSAGES, Results, type ListedRun } from './service.js';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A dashboard backtest card (docs/product.md §2.3 "Backtest item"), with every alias the spec lists. */
export function presentRun(run: ListedRun) {
  const period = `${run.startDate} → ${run.endDate}`;
  const file = `${run.folder}.xlsx`;
  return {
    id: run.id,
    run_id: run.runId,
    folder: run.folder,
    symbol: run.symbol,
    pair: run.symbol,
    timeframe: run.timeframe,
    tf: run.timeframe,
    strategy: run.strategy,
    display_name: run.strategyLabel,
    strategy_display: run.strategyLabel,
    user_strategy_id: run.userStrategyId,
    source: run.source,
    period,
    date_range: period,
    start_date: run.startDate,
    end_date: run.endDate,
    winrate: run.winrateTp1,
    winrate_tp1: run.winrateTp1,
    tp1_winrate: run.winrateTp1,
    winrate_tp2: run.winrateTp2,
    sl_rate: slRateOf(run.resolved, run.winrateTp1),
    trades: run.trades,
    total_trades: run.trades,
    count: run.trades,
    resolved: run.resolved,
    sl_mode: run.slMode,
    sl_pips: run.slPips,
    tp1_pips: run.tp1Pips,
    tp2_pips: run.tp2Pips,
    xlsx_filename: run.xlsxPath ? file : null,
    xlsx_result: run.xlsxPath ? `${run.folder}/${file}` : null,
    year: Number(run.startDate.slice(0, 4)),
    month: Number(run.startDate.slice(5, 7)),
    created_at: run.createdAt.toISOString(),
  };
}

export function sheetOptions(query: Body) {
  const options: { offset?: string; limit?: string; useHeader?: string } = {};
  const offset = scalar(query, 'offset');
  const limit = scalar(query, 'limit');
  const header = scalar(query, 'use_header') ?? scalar(query, 'useHeader');
  if (offset !== undefined) options.offset = offset;
  if (limit !== undefined) options.limit = limit;
  if (header !== undefined) options.useHeader = header;
  return options;
}

/** The signed-in user's own results (docs/product.md §2.7 "User results"); another user's folder is a 404. */
export function resultRoutes(services: Services, _deps: AppDeps): Router<AppState> {
  const { results } = services;
  const router = apiRouter();

  router.get('/api/user/backtests', requireUser, async (ctx) => {
    // The whole list, or a page of it in the dashboard's order (docs/api.md).
    const { runs, total } = await results.listing(currentUser(ctx).user.id, listingRequest(ctx.query));
    ctx.body = { items: runs.map(presentRun), total };
  });

  router.get('/api/user/backtests/xlsx/meta', requireUser, async (ctx) => {
    const run = await results.owned(currentUser(ctx).user.id, Results.folderParam(ctx.query));
    ctx.body = await results.meta(run);
  });

  router.get('/api/user/backtests/xlsx/sheet', requireUser, async (ctx) => {
    const run = await results.owned(currentUser(ctx).user.id, Results.folderParam(ctx.query));
    const sheet = text(ctx.query, 'sheet');
    const page = await results.sheet(run, sheet, sheetOptions(ctx.query));
    ctx.body = { folder: run.folder, ...page };
  });

  // The result view's chart: candles of the run's period and its trades (docs/api.md).
  router.get('/api/user/backtests/chart', requireUser, async (ctx) => {
    const run = await results.owned(currentUser(ctx).user.id, Results.folderParam(ctx.query));
    ctx.body = await services.charts.view(run);
  });

  router.delete('/api/user/backtests/delete/:folder', requireUser, async (ctx) => {
    const run = await results.owned(currentUser(ctx).user.id, String(ctx.params.folder ?? ''));
    await results.remove(run);
    ctx.body = { status: 'success', message: RESULT_MESSAGES.deleted, folder: run.folder };
  });

  // The workbook download link (docs/product.md §2.7): GET /api/download/{file}?folder&apiKey.
  router.get('/api/download/:file', requireUser, async (ctx) => {
    const file = String(ctx.params.file ?? '');
    const folder = text(ctx.query, 'folder') || file.replace(/\.xlsx$/i, '');
    const run = await results.owned(currentUser(ctx).user.id, folder);
    if (file !== workbookFileName(run.folder)) throw notFound(RESULT_MESSAGES.unknownFolder);
    const bytes = await results.workbookBytes(run);
    ctx.set('Content-Disposition', `attachment; filename="${file}"`);
    ctx.type = XLSX_TYPE;
    ctx.body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  });

  return router;
}
