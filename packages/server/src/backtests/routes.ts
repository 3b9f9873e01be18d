import type Router from '@koa/router';
import { apiRouter } from '../app/router.js';
import { MIN_CREDITS_FOR_BACKTEST, findStrategy, findSymbol, normalizeSymbol, parsePipSize, pipSize } from '@bt/core/catalogue';
import { UPLOAD_PATH } from '../app/config.js';
import type { AppContext, AppState } from '../app/context.js';
import type { AppDeps } from '../app/deps.js';
import { badRequest, HttpError, notFound } from '../app/errors.js';
import { bodyOf, text, textOf, type Body } from '../app/input.js';
import { readForm } from '../app/multipart.js';
import type { Services } from '../app/services.js';
import { currentUser, requireUser } from '../auth/middleware.js';
import { InsufficientCreditsError } from '../credits/ledger.js';
import type { User } from '../db/models.js';
import { UPLOAD_LIMIT_MESSAGES } from '../uploads/messages.js';
import { costsOf } from './costs.js';
import { listStrategiesAnswer, officialParamsAnswer, presentOutcome, userParamsAnswer } from './presenter.js';
import { anyTimeframe, BACKTEST_MESSAGES, dayOf, decimalOf, exitsOf, libraryTimeframe, officialSymbol, periodOf, strategyRef } from './request.js';
import type { BacktestOutcome } from './service.js';

const SYMBOL_SHAPE = /^[A-Z0-9]+(?:[-.][A-Z0-9]+)*$/;

export const UPLOAD_MESSAGES = {
  tooLarge: (bytes: number) => `Fichier trop volumineux (${sizeText(bytes)} maximum).`,
  noFile: 'Aucun fichier CSV sélectionné',
  badFormat: 'Format non pris en charge : choisis un fichier .csv ou .xlsx.',
  badSymbol: (s: string) => `Symbole invalide : « ${s} » (lettres, chiffres, - ou . ; 32 caractères au plus).`,
  needPip: (s: string) => `Symbole hors catalogue (${s}) : indique la taille du pip (pip_size), par exemple 0.0001.`,
  badPip: (v: string) => `Taille de pip invalide : « ${v} » (un nombre de 0,000000001 à 10 000).`,
  noTimeframe: "L'unité de temps du fichier n'a pas pu être déterminée : indique-la (timeframe).",
  noCandleInPeriod: (start: string, end: string) => `Aucune bougie du fichier entre le ${start} et le ${end}.`,
} as const;

/** Backtests on official data or an uploaded file, the strategy catalogue, pip sizes (docs/product.md §2.7). */
export function backtestRoutes(services: Services, deps: AppDeps): Router<AppState> {
  const { backtests, strategies } = services;
  const router = apiRouter();

  router.get('/api/list_strategies', async (ctx) => {
    const auth = ctx.state.auth;
    ctx.body = listStrategiesAnswer(auth ? await strategies.list(auth.user.id) : null);
  });

  router.get('/api/strategy_params/:strategy', async (ctx) => {
    const key = String(ctx.params.strategy ?? '');
    const official = findStrategy(key);
    if (official) {
      ctx.body = officialParamsAnswer(official);
      return;
    }
    if (!/^us_/.test(key)) throw notFound(BACKTEST_MESSAGES.unknownStrategy(key.slice(0, 80)));
    const row = await strategies.owned(currentUser(ctx).user.id, key);
    ctx.body = userParamsAnswer(row, strategies.shapeOf(row));
  });

  router.get('/api/pip', async (ctx) => {
    const symbol = text(ctx.query, 'symbol');
    if (!symbol) throw badRequest(BACKTEST_MESSAGES.noSymbol);
    const found = findSymbol(symbol);
    if (!found) throw notFound(BACKTEST_MESSAGES.unknownSymbol(symbol.slice(0, 40)));
    ctx.body = { symbol: found.symbol, label: found.label, asset_class: found.assetClass, pip: found.pipSize, pip_size: found.pipSize, typical_spread_pips: found.typicalSpreadPips };
  });

  router.post('/api/run_backtest', requireUser, async (ctx) => {
    const started = performance.now();
    const body = bodyOf(ctx);
    const { user } = currentUser(ctx);
    const ref = strategyRef(textOf(body, ['strategy', 'strategy_name']));
    const symbol = officialSymbol(text(body, 'symbol'));
    const timeframe = libraryTimeframe(text(body, 'timeframe'));
    const period = periodOf(text(body, 'start_date'), text(body, 'end_date'), user.role === 'admin');
    const strategy = await backtests.choose(user, ref);
    const exits = exitsOf(body, strategy.kind === 'user' ? strategy.row.slMode : null);
    const costs = costsOf(body, symbol);
    const params = backtests.normalize(strategy, paramsOf(body));
    requireCredits(user);
    const loading = performance.now();
    const { candles, months } = await backtests.officialCandles(symbol, timeframe, period.from, period.to);
    const loadMs = performance.now() - loading;
    const outcome = await backtests.run({ user, source: 'official', strategy, params, exits, costs, symbol, timeframe, pipSize: pipSize(symbol), candles, months, from: period.from, to: period.to });
    answer(ctx, outcome, started, loadMs);
  });

  router.post(UPLOAD_PATH, requireUser, async (ctx) => {
    const started = performance.now();
    const { user } = currentUser(ctx);
    // Key and credits first: nobody without the means to run a backtest gets a file parsed.
    requireCredits(user);
    const limit = deps.config.uploadLimitBytes;
    const { uploads } = services;
    const isAdmin = user.role === 'admin';
    const { strategy, params, exits, costs, symbol, pip, candles, timeframe, given } = await uploads.inSlot(async () => {
      const { fields, files } = await readForm(ctx, limit + 256 * 1024, UPLOAD_MESSAGES.tooLarge(limit), {
        ms: uploads.limits.bodyTimeoutMs,
        message: UPLOAD_LIMIT_MESSAGES.bodyTimeout,
      });
      const file = files.csv_file ?? files.file ?? Object.values(files)[0];
      // A form sent without a chosen file has an empty part with no name: that is "no file". An
      // empty file that has a name goes on to the reader, which says the file is empty.
      if (!file || (file.bytes.byteLength === 0 && !/\.(csv|xlsx)$/i.test(file.filename))) throw badRequest(UPLOAD_MESSAGES.noFile);
      if (file.bytes.byteLength > limit) throw new HttpError(413, UPLOAD_MESSAGES.tooLarge(limit));
      const kind = /\.xlsx$/i.test(file.filename) ? 'xlsx' : /\.csv$/i.test(file.filename) ? 'csv' : null;
      if (!kind) throw badRequest(UPLOAD_MESSAGES.badFormat);
      const ref = strategyRef(textOf(fields, ['strategy', 'strategy_name']));
      const symbol = customSymbol(text(fields, 'symbol'));
      const pip = customPip(symbol, text(fields, 'pip_size'));
      const wantedTf = text(fields, 'timeframe') ? anyTimeframe(text(fields, 'timeframe')) : undefined;
      const strategy = await backtests.choose(user, ref);
      const exits = exitsOf(fields, strategy.kind === 'user' ? strategy.row.slMode : null);
      const costs = costsOf(fields, symbol);
      const params = backtests.normalize(strategy, paramsOf(fields));
      // Every field is checked before the file is parsed: a bad form costs no parse.
      const startDay = text(fields, 'start_date');
      const endDay = text(fields, 'end_date');
      const given = startDay || endDay ? periodOf(startDay, endDay, isAdmin) : null;
      const loaded = await uploads.readCandles(file, kind, symbol, wantedTf);
      return { strategy, params, exits, costs, symbol, pip, candles: loaded.candles, timeframe: loaded.timeframe ?? wantedTf, given };
    });
    if (!timeframe) throw badRequest(UPLOAD_MESSAGES.noTimeframe);
    const period = given ?? periodOf(dayOf(candles.time[0]), dayOf(candles.time[candles.length - 1]), isAdmin);
    if (!candles.time.some((t) => t >= period.from && t <= period.to)) throw badRequest(UPLOAD_MESSAGES.noCandleInPeriod(period.startDay, period.endDay));
    const outcome = await backtests.run({ user, source: 'custom', strategy, params, exits, costs, symbol, timeframe, pipSize: pip, candles, from: period.from, to: period.to });
    answer(ctx, outcome, started, 0);
  });

  router.get('/api/list_output_backtest_files', requireUser, async (ctx) => {
    const runs = await services.results.list(currentUser(ctx).user.id);
    ctx.body = {
      files: runs.map((r) => ({ folder: r.folder, file: `${r.folder}.xlsx`, path: `${r.folder}/${r.folder}.xlsx`, created_at: r.createdAt.toISOString() })),
    };
  });

  return router;
}

function answer(ctx: AppContext, outcome: BacktestOutcome, started: number, loadMs: number): void {
  const { engine_ms, report_ms } = outcome.result.timing;
  const body = presentOutcome(outcome, { total_ms: 0 });
  const total = Math.round((performance.now() - started) * 10) / 10;
  body.timing.total_ms = total;
  // Server-side time of the whole call and its phases (candles, charge, engine, workbook, storage),
  // for clients and for the benchmark (docs/PERFORMANCE.md, section server).
  const load = Math.round(loadMs * 10) / 10;
  ctx.set('Server-Timing', `total;dur=${total}, load;dur=${load}, charge;dur=${outcome.phases.charge_ms}, engine;dur=${engine_ms}, report;dur=${report_ms}, store;dur=${outcome.phases.store_ms}`);
  ctx.body = body;
}

/** `params` as an object, or `params_json` as text (the custom form). */
function paramsOf(body: Body): unknown {
  if (body.params !== undefined && body.params !== '') return body.params;
  return body.params_json;
}

/** A backtest needs MIN_CREDITS_FOR_BACKTEST before anything is loaded (the spend checks again, atomically). */
function requireCredits(user: User): void {
  if (user.credits < MIN_CREDITS_FOR_BACKTEST) throw new InsufficientCreditsError(MIN_CREDITS_FOR_BACKTEST, user.credits);
}

/** 20 Mo, 256 Ko: the unit the limit is round in. */
export function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} Mo` : `${Math.round(bytes / 1024)} Ko`;
}

function customSymbol(value: string): string {
  if (!value.trim()) throw badRequest(BACKTEST_MESSAGES.noSymbol);
  const symbol = normalizeSymbol(value);
  if (symbol.length > 32 || !SYMBOL_SHAPE.test(symbol)) throw badRequest(UPLOAD_MESSAGES.badSymbol(value.trim().slice(0, 40)));
  return symbol;
}

function customPip(symbol: string, override: string): number {
  if (override) {
    // Core's rule (a decimal number in the range levels can be rounded to), with the form's message.
    const value = override.length <= 64 ? parsePipSize(override) : undefined;
    if (value === undefined) throw badRequest(UPLOAD_MESSAGES.badPip(override.slice(0, 20)));
    return value;
  }
  if (!findSymbol(symbol)) throw badRequest(UPLOAD_MESSAGES.needPip(symbol));
  return pipSize(symbol);
}
