/**
 * The backtest form as data (docs/product.md §2.2, §2.3, §2.5): which parameter fields show, whether it can be
 * submitted, the first problem to show, and the request it sends. Parameter aliasing, coercion,
 * signature filtering and the overlap percent come from @bt/core/params.
 */
import { DEFAULT_SL_PIPS, findParam, findStrategy, findSymbol, paramDefaults } from '@bt/core/catalogue';
import type { ParamDefinition, StrategyParams } from '@bt/core/catalogue';
import { ParamError, normalizeParams, overlapPercentToFraction } from '@bt/core/params';
import { costFormFields, costRequest, costsError, initialCosts, type CostFormState } from '../../features/costs/costs.js';
import { dateError, periodDays } from './dates.js';
import type { UserStrategy } from './userStrategies.js';

export const FORM_MESSAGES = {
  noStrategy: 'Choisis une stratégie (officielle ou générée).',
  noCsv: 'Aucun fichier CSV sélectionné',
  badFile: 'Format non pris en charge : choisis un fichier .csv ou .xlsx.',
  slRequired: 'Renseigne un stop-loss en pips (0 = SL interne, au bord de la zone).',
  tp1Required: 'Renseigne un take-profit TP1 en pips.',
  tp2BelowTp1: 'Le TP2 doit être supérieur ou égal au TP1.',
  overlapRange: 'Profondeur min retour : un pourcentage entre 0,1 et 100, ou coche « entrée au toucher ».',
  notEnoughCredits: 'Il te faut au moins 2 crédits pour lancer un backtest.',
} as const;

export const OVERLAP_PARAM = 'min_overlap_ratio';

export type DataMode = 'official' | 'custom';
export type StrategySource = 'official' | 'gpt';

export interface BacktestFormState {
  mode: DataMode;
  source: StrategySource;
  officialStrategy: string;
  userStrategyId: string;
  symbol: string;
  customSymbol: string;
  timeframe: string;
  start: string;
  end: string;
  slPips: string;
  tp1Pips: string;
  tp2Pips: string;
  /** Raw field values by canonical parameter name ('' = not given). */
  params: Record<string, string | boolean>;
  overlapTouch: boolean;
  overlapPercent: string;
  file: { name: string } | null;
  /** Trading costs (docs/engine.md §13): the spread pre-filled with the symbol's typical one. */
  costs: CostFormState;
}

/**
 * The pair a `?symbol=` names (docs/product.md §2.2; the pair sheets link with it), in the
 * catalogue's spelling; '' for one the catalogue does not know. Kept as typed, an unknown pair
 * matched no option: the picker showed '— Choisir —' while the form held it and sent it.
 */
export function symbolFromQuery(param: string | null): string {
  return (param && findSymbol(param.trim())?.symbol) || '';
}

export function initialForm(now: { symbol?: string | null } = {}): BacktestFormState {
  return {
    mode: 'official',
    source: 'official',
    officialStrategy: '',
    userStrategyId: '',
    symbol: (now.symbol ?? '').toUpperCase(),
    customSymbol: '',
    timeframe: 'M15',
    start: '',
    end: '',
    slPips: String(DEFAULT_SL_PIPS),
    tp1Pips: String(DEFAULT_SL_PIPS),
    tp2Pips: String(DEFAULT_SL_PIPS * 2),
    params: {},
    overlapTouch: true,
    overlapPercent: '',
    file: null,
    costs: initialCosts((now.symbol ?? '').toUpperCase()),
  };
}

export interface ParamField {
  definition: ParamDefinition;
  /** Default shown to the user (family overrides applied). */
  defaultValue: number | boolean | string | undefined;
}

export interface ParamLayout {
  basic: ParamField[];
  advanced: ParamField[];
  /** The names the request may carry (the strategy's signature). */
  signature: string[] | null;
}

function fieldsFor(names: readonly string[], defaults: StrategyParams): ParamField[] {
  const fields: ParamField[] = [];
  for (const name of names) {
    const definition = findParam(name);
    if (definition) fields.push({ definition, defaultValue: defaults[name] ?? definition.default });
  }
  return fields;
}

/**
 * Parameter fields of the chosen strategy: an official one from the catalogue (its parameters by
 * level); a personal one from its meta.ui lists, else the server signature, else none.
 * `serverSignature` filters either (docs/product.md §2.5).
 */
export function paramLayout(form: BacktestFormState, userStrategy: UserStrategy | null, serverSignature: string[] | null): ParamLayout {
  if (form.source === 'official') {
    const strategy = findStrategy(form.officialStrategy);
    if (!strategy) return { basic: [], advanced: [], signature: null };
    const names = serverSignature ? strategy.params.filter((n) => serverSignature.includes(n)) : [...strategy.params];
    const all = fieldsFor(names, paramDefaults(strategy.key));
    return { basic: all.filter((f) => f.definition.level === 'basic'), advanced: all.filter((f) => f.definition.level === 'advanced'), signature: names };
  }
  if (!userStrategy) return { basic: [], advanced: [], signature: serverSignature };
  const allowed = (name: string) => !serverSignature || serverSignature.includes(name);
  if (userStrategy.ui && (userStrategy.ui.basic.length || userStrategy.ui.advanced.length)) {
    const hidden = new Set(userStrategy.ui.hidden);
    const basic = fieldsFor(userStrategy.ui.basic.filter((n) => !hidden.has(n) && allowed(n)), {});
    const advanced = fieldsFor(userStrategy.ui.advanced.filter((n) => !hidden.has(n) && allowed(n)), {});
    return { basic, advanced, signature: serverSignature ?? [...userStrategy.ui.basic, ...userStrategy.ui.advanced, ...userStrategy.ui.hidden] };
  }
  if (serverSignature) {
    const all = fieldsFor(serverSignature, {});
    return { basic: all.filter((f) => f.definition.level === 'basic'), advanced: all.filter((f) => f.definition.level === 'advanced'), signature: serverSignature };
  }
  return { basic: [], advanced: [], signature: null };
}

export function strategyChosen(form: BacktestFormState): boolean {
  return form.source === 'official' ? form.officialStrategy !== '' : form.userStrategyId !== '';
}

/** Submit is enabled with pair, timeframe and dates (official) or file, symbol and timeframe (custom). */
export function canSubmit(form: BacktestFormState): boolean {
  if (!form.timeframe) return false;
  if (form.mode === 'official') return form.symbol !== '' && form.start !== '' && form.end !== '';
  return form.file !== null && form.customSymbol.trim() !== '';
}

function pipsValue(text: string): number | null {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) && value >= 0 ? value : null;
}

export interface BuiltParams {
  params: StrategyParams;
  warnings: string[];
}

/** The parameters the request carries, through core's one pipeline; errors in French. */
export function buildParams(form: BacktestFormState, layout: ParamLayout): BuiltParams | { error: string } {
  const raw: Record<string, unknown> = {};
  const shown = [...layout.basic, ...layout.advanced];
  for (const field of shown) {
    const name = field.definition.name;
    if (name === OVERLAP_PARAM) continue;
    const value = form.params[name];
    if (value !== undefined && value !== '') raw[name] = value;
  }
  if (shown.some((f) => f.definition.name === OVERLAP_PARAM) && !form.overlapTouch) {
    try {
      const fraction = overlapPercentToFraction(form.overlapPercent);
      if (fraction === undefined) return { error: FORM_MESSAGES.overlapRange };
      raw[OVERLAP_PARAM] = fraction;
    } catch {
      return { error: FORM_MESSAGES.overlapRange };
    }
  }
  const strategy = form.source === 'official' && findStrategy(form.officialStrategy) ? form.officialStrategy : (layout.signature ?? undefined);
  try {
    const normalized = normalizeParams(raw, { strategy, unknown: 'warn' });
    const params = layout.signature
      ? Object.fromEntries(Object.entries(normalized.params).filter(([name]) => layout.signature!.includes(name)))
      : normalized.params;
    return { params, warnings: normalized.warnings };
  } catch (error) {
    if (error instanceof ParamError) {
      const label = findParam(error.param)?.label ?? error.param;
      return { error: `Valeur invalide pour « ${label} » : ${String(error.value)}.` };
    }
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

export interface FormContext {
  isAdmin: boolean;
  credits: number | null;
  loggedIn: boolean;
}

/** The first problem to show before sending, or null. */
export function formError(form: BacktestFormState, layout: ParamLayout, context: FormContext): string | null {
  if (!strategyChosen(form)) return FORM_MESSAGES.noStrategy;
  if (form.mode === 'custom') {
    if (!form.file) return FORM_MESSAGES.noCsv;
    if (!/\.(csv|xlsx)$/i.test(form.file.name)) return FORM_MESSAGES.badFile;
  }
  const dates = dateError(form.start, form.end, context.isAdmin);
  if (dates) return dates;
  const sl = pipsValue(form.slPips);
  if (sl === null) return FORM_MESSAGES.slRequired;
  const tp1 = pipsValue(form.tp1Pips);
  const tp2 = pipsValue(form.tp2Pips);
  // With an internal stop (0), TP1 and TP2 default to 1R and 2R (docs/architecture.md §2).
  if (sl > 0 && (tp1 === null || tp1 <= 0)) return FORM_MESSAGES.tp1Required;
  if (tp1 !== null && tp2 !== null && tp2 > 0 && tp2 < tp1) return FORM_MESSAGES.tp2BelowTp1;
  const built = buildParams(form, layout);
  if ('error' in built) return built.error;
  const costs = costsError(form.costs);
  if (costs) return costs;
  if (context.loggedIn && context.credits !== null && context.credits < 2) return FORM_MESSAGES.notEnoughCredits;
  return null;
}

export function strategyValue(form: BacktestFormState): string {
  return form.source === 'official' ? form.officialStrategy : form.userStrategyId;
}

function pipsField(text: string): number | undefined {
  return pipsValue(text) ?? undefined;
}

/** JSON body of POST /api/run_backtest (docs/product.md §2.3). */
export function officialRequest(form: BacktestFormState, params: StrategyParams): Record<string, unknown> {
  return {
    strategy: strategyValue(form),
    params,
    sl_pips: pipsField(form.slPips),
    tp1_pips: pipsField(form.tp1Pips),
    tp2_pips: pipsField(form.tp2Pips),
    symbol: form.symbol,
    timeframe: form.timeframe,
    start_date: form.start,
    end_date: form.end,
    auto_analyze: true,
    ...costRequest(form.costs, false),
  };
}

/** Multipart fields of POST /api/upload_csv_and_backtest (docs/product.md §2.3), the file excepted. */
export function customRequestFields(form: BacktestFormState, params: StrategyParams): Record<string, string> {
  const fields: Record<string, string> = {
    strategy: strategyValue(form),
    sl_pips: form.slPips.trim(),
    tp1_pips: form.tp1Pips.trim(),
    tp2_pips: form.tp2Pips.trim(),
    symbol: form.customSymbol.trim().toUpperCase(),
    timeframe: form.timeframe,
    start_date: form.start,
    end_date: form.end,
    params_json: JSON.stringify(params),
    ...costFormFields(form.costs),
  };
  return fields;
}

/** Period length for the ETA (1 day when the custom file's dates are not given). */
export function runDays(form: BacktestFormState): number {
  return periodDays(form.start, form.end) ?? 1;
}
