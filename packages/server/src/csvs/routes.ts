import type Router from '@koa/router';
import { apiRouter } from '../app/router.js';
import { findSymbol, parseTimeframe } from '@bt/core/catalogue';
import type { AppContext, AppState } from '../app/context.js';
import type { AppDeps } from '../app/deps.js';
import { badRequest } from '../app/errors.js';
import { text, textOf } from '../app/input.js';
import { MSG } from '../app/messages.js';
import type { Services } from '../app/services.js';
import { currentUser, requireUser } from '../auth/middleware.js';
import type { Dataset, UserCsv } from '../db/models.js';
import { relativeSegments } from '../storage/index.js';
import { isPartialMonth } from './coverage.js';
import { CSV_MESSAGES, type CsvFile } from './service.js';

/** A library month as the shop lists it (docs/api.md "GET /api/list_csv_library"; `partial`: coverage.ts). */
export function presentDataset(d: Dataset, owned: Set<string> | null, now: Date) {
  const label = findSymbol(d.symbol)?.label ?? d.symbol;
  return {
    symbol: d.symbol,
    pair: d.symbol,
    label,
    timeframe: d.timeframe,
    tf: d.timeframe,
    name: d.path.split('/').pop(),
    path: d.path,
    year: Number(d.month.slice(0, 4)),
    month: Number(d.month.slice(5, 7)),
    period: d.month,
    source: 'library',
    origin: d.source,
    rows: d.rows,
    size: d.bytes,
    first_candle: d.firstCandle.toISOString(),
    last_candle: d.lastCandle.toISOString(),
    partial: isPartialMonth(d.month, d.timeframe, d.firstCandle, d.lastCandle, now),
    checksum: d.checksum,
    price: 1,
    ...(owned ? { owned: owned.has(d.path) } : {}),
  };
}

/** An owned file (purchase or extraction) for 'Mes CSV' and the recent extractions (docs/product.md §2.3). */
export function presentUserCsv(f: UserCsv) {
  const name = f.path.split('/').pop()!;
  const owned = `/api/download_owned_csv_by_path/${f.path.split('/').map(encodeURIComponent).join('/')}`;
  return {
    id: f.id,
    filename: name,
    name,
    path: f.path,
    relative_path: f.path,
    symbol: f.symbol,
    pair: f.symbol,
    timeframe: f.timeframe,
    tf: f.timeframe,
    period: f.kind === 'library' ? f.startDate.slice(0, 7) : `${f.startDate} → ${f.endDate}`,
    start_date: f.startDate,
    end_date: f.endDate,
    kind: f.kind,
    source: f.kind === 'extraction' ? 'live' : 'library',
    label: f.kind === 'extraction' ? 'LIVE (privé)' : null,
    rows: f.rows,
    size: f.bytes,
    purchased_at: f.createdAt.toISOString(),
    created_at: f.createdAt.toISOString(),
    date: f.createdAt.toISOString(),
    download_url: owned,
  };
}

/** The path after a route prefix, decoded once (a malformed escape is a bad path, 400). */
function pathAfter(ctx: AppContext, prefix: string): string {
  let path: string;
  try {
    path = decodeURIComponent(ctx.path.slice(prefix.length));
  } catch {
    throw badRequest(MSG.invalidPath);
  }
  relativeSegments(path);
  return path;
}

function sendCsv(ctx: AppContext, file: CsvFile): void {
  ctx.set('Content-Disposition', `attachment; filename="${file.name}"`);
  ctx.set('X-Credits-Remaining', String(file.balance));
  ctx.set('X-Credit-Charged', file.charged ? '1' : '0');
  ctx.type = 'text/csv; charset=utf-8';
  ctx.body = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
}

/** The CSV shop (docs/product.md §2.7 "CSV shop") and 'Mes CSV'. */
export function csvRoutes(services: Services, deps: AppDeps): Router<AppState> {
  const { csvShop } = services;
  const router = apiRouter();

  router.get('/api/list_csv_library', async (ctx) => {
    const symbol = textOf(ctx.query, ['symbol', 'pair']);
    const tf = textOf(ctx.query, ['timeframe', 'tf']);
    const month = text(ctx.query, 'month');
    const year = text(ctx.query, 'year');
    let timeframe: string | undefined;
    if (tf && tf.toUpperCase() !== 'ALL') {
      try {
        timeframe = parseTimeframe(tf);
      } catch {
        timeframe = '-';
      }
    }
    const rows = await csvShop.library({
      symbol: symbol && symbol.toUpperCase() !== 'ALL' ? findSymbol(symbol)?.symbol ?? '-' : undefined,
      timeframe,
      // A filter that is not a month or a year matches nothing, as an unknown symbol does (`year=23`
      // listed every year).
      month: month ? (/^\d{4}-\d{2}$/.test(month) ? month : '-') : undefined,
      year: year ? (/^\d{4}$/.test(year) ? year : '-') : undefined,
    });
    const owned = ctx.state.auth ? await csvShop.ownedPaths(ctx.state.auth.user.id) : null;
    const now = deps.clock.now();
    const files = rows.map((d) => presentDataset(d, owned, now));
    ctx.body = { files, total: files.length, symbols: [...new Set(files.map((f) => f.symbol))], timeframes: [...new Set(files.map((f) => f.timeframe))] };
  });

  const BUY = '/api/download_csv_by_path/';
  router.get(`${BUY}*path`, requireUser, async (ctx) => {
    sendCsv(ctx, await csvShop.download(currentUser(ctx).user, pathAfter(ctx, BUY)));
  });

  const OWNED = '/api/download_owned_csv_by_path/';
  router.get(`${OWNED}*path`, requireUser, async (ctx) => {
    sendCsv(ctx, await csvShop.downloadOwned(currentUser(ctx).user, pathAfter(ctx, OWNED)));
  });

  router.get('/api/extract_to_output_live', requireUser, async (ctx) => {
    const q = ctx.query;
    const { file, charged, balance } = await csvShop.extract(currentUser(ctx).user, {
      symbol: textOf(q, ['symbol', 'pair']),
      timeframe: textOf(q, ['timeframe', 'tf']),
      startDate: text(q, 'start_date'),
      endDate: text(q, 'end_date'),
    });
    ctx.body = { status: 'success', message: charged ? CSV_MESSAGES.extracted : CSV_MESSAGES.alreadyExtracted, files: [presentUserCsv(file)], charged, credits_remaining: balance };
  });

  router.get('/api/my_recent_extractions', requireUser, async (ctx) => {
    ctx.body = { files: (await csvShop.recentExtractions(currentUser(ctx).user.id, ctx.query)).map(presentUserCsv) };
  });

  router.get('/api/user/csvs', requireUser, async (ctx) => {
    const items = (await csvShop.all(currentUser(ctx).user.id)).map(presentUserCsv);
    ctx.body = { items, total: items.length };
  });

  return router;
}
