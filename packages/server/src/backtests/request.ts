import { LIBRARY_TIMEFRAMES, MAX_BACKTEST_DAYS, TIMEFRAMES, closest, findStrategy, findSymbol, parseTimeframe, STRATEGY_KEYS, type StrategyParams, type TimeframeKey } from '@bt/core/catalogue';
import { badRequest } from '../app/errors.js';
import { MSG } from '../app/messages.js';
import { text, type Body } from '../app/input.js';

/** The sentences of the backtest calls (docs/product.md §2.5, §2.8 where quoted; the others in their tone). */
export const BACKTEST_MESSAGES = {
  noStrategy: 'Choisis une stratégie (officielle ou générée).',
  unknownStrategy: (key: string, suggestion?: string) => `Stratégie inconnue : « ${key} »${suggestion ? ` (voulais-tu dire ${suggestion} ?)` : ''}.`,
  noSymbol: 'Renseigne la paire (symbol).',
  unknownSymbol: (symbol: string) => `Symbole inconnu : « ${symbol} ».`,
  noTimeframe: 'Renseigne l’unité de temps (timeframe).',
  officialTimeframe: (tf: string) => `Unité de temps non disponible pour les données officielles : « ${tf} » (${LIBRARY_TIMEFRAMES.join(', ')}).`,
  unknownTimeframe: (tf: string) => `Unité de temps inconnue : « ${tf} » (${TIMEFRAMES.map((t) => t.key).join(', ')}).`,
  noDates: 'Renseigne la date de début et la date de fin.',
  badDate: (value: string) => `Date invalide : « ${value} » (format AAAA-MM-JJ).`,
  dateOrder: 'La date de début doit être ≤ à la date de fin.',
  tooLong: (days: number) => `Période trop longue (${days} jours). Maximum : ${MAX_BACKTEST_DAYS} jours.`,
  slRequired: 'Renseigne un stop-loss en pips (sl_pips > 0, ou 0 pour un SL interne).',
  tp1Required: 'Renseigne un take-profit TP1 en pips (tp1_pips > 0).',
  tp2BelowTp1: 'Le TP2 doit être supérieur ou égal au TP1.',
  badPips: (name: string, value: unknown) => `Valeur invalide pour ${name} : « ${String(value).slice(0, 40)} » (un nombre de pips de 0 à ${MAX_PIPS.toLocaleString('fr-FR')}).`,
  slModeInvalid: 'sl_mode invalide (internal ou external).',
  slOutOfRange: (value: unknown) => `Valeur invalide pour sl_pips : « ${String(value).slice(0, 40)} » (un stop externe de 0,0001 à moins de 1 000 000 pips, ou 0 pour un SL interne).`,
  noOfficialData: (symbol: string, tf: string, start: string, end: string, available: string) =>
    `Aucune donnée officielle pour ${symbol} ${tf} du ${start} au ${end}. ${available}`,
  availableRanges: (tf: string, ranges: string) => `Données disponibles en ${tf} : ${ranges}.`,
  availableElsewhere: (symbol: string, timeframes: string) => `Pas de données ${symbol} dans cette unité de temps ; disponibles en ${timeframes}.`,
  noDataForSymbol: (symbol: string) => `Aucune donnée officielle pour ${symbol} pour l’instant : la bibliothèque n’a encore aucun mois de cet instrument.`,
  paramsTooLarge: (kb: number, maxKb: number) => `Champ « params » : paramètres trop volumineux (${kb.toLocaleString('fr-FR')} Ko une fois enregistrés, ${maxKb} Ko au plus).`,
  failed: 'Le backtest a échoué : aucun crédit n’a été débité.',
  invalidSignal: (detail: string) => `La stratégie a renvoyé un signal invalide (${detail}) : aucun crédit n’a été débité.`,
  done: 'Backtest terminé.',
} as const;

const DAY = 86_400_000;

/** A calendar day `YYYY-MM-DD` (UTC) to its first instant; throws the French error otherwise. */
export function parseDay(value: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0 to 99 as 1900 to 1999, so `0050-01-01`
  // (or the first candle of a file dated so) was an invalid date.
  const time = match ? new Date(0).setUTCFullYear(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : NaN;
  if (!Number.isFinite(time) || new Date(time).toISOString().slice(0, 10) !== value) throw badRequest(BACKTEST_MESSAGES.badDate(value));
  return time;
}

export interface Period {
  startDay: string;
  endDay: string;
  /** ms UTC, inclusive: 00:00 of the first day to 23:59:59.999 of the last. */
  from: number;
  to: number;
  days: number;
}

/** Both ends counted: 1 → 31 January is 31 days (the web app counts the same way). */
export function periodOf(startDay: string, endDay: string, isAdmin: boolean): Period {
  if (!startDay || !endDay) throw badRequest(BACKTEST_MESSAGES.noDates);
  const from = parseDay(startDay);
  const end = parseDay(endDay);
  if (from > end) throw badRequest(BACKTEST_MESSAGES.dateOrder);
  const days = Math.round((end - from) / DAY) + 1;
  if (days > MAX_BACKTEST_DAYS && !isAdmin) throw badRequest(BACKTEST_MESSAGES.tooLong(days));
  return { startDay, endDay, from, to: end + DAY - 1, days };
}

export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Official key, or a personal strategy id (`us_...`), or the French refusal. */
export function strategyRef(value: string): { kind: 'official'; key: string } | { kind: 'user'; id: string } {
  const key = value.trim();
  if (!key) throw badRequest(BACKTEST_MESSAGES.noStrategy);
  if (/^us_/.test(key)) return { kind: 'user', id: key };
  const found = findStrategy(key);
  if (!found) throw badRequest(BACKTEST_MESSAGES.unknownStrategy(key.slice(0, 80), suggestion(key)));
  return { kind: 'official', key: found.key };
}

/** How many edits a "did you mean" suggestion may be from what was typed. */
const SUGGESTION_EDITS = 6;
const LONGEST_KEY = Math.max(...STRATEGY_KEYS.map((k) => k.length));

/**
 * The official key a mistyped one probably meant. The edit distance costs the product of both
 * lengths, on the event loop: a 1 MB `strategy` held it 4 s (a 20 MB upload field, over a
 * minute). A key longer than any by more than the edits allowed cannot be within them (the
 * distance is at least the difference in length), so it is not compared at all.
 */
function suggestion(key: string): string | undefined {
  return key.length <= LONGEST_KEY + SUGGESTION_EDITS ? closest(key, STRATEGY_KEYS, SUGGESTION_EDITS) : undefined;
}

export function officialSymbol(value: string): string {
  if (!value.trim()) throw badRequest(BACKTEST_MESSAGES.noSymbol);
  const found = findSymbol(value);
  if (!found) throw badRequest(BACKTEST_MESSAGES.unknownSymbol(value.trim().slice(0, 40)));
  return found.symbol;
}

export function anyTimeframe(value: string): TimeframeKey {
  if (!value.trim()) throw badRequest(BACKTEST_MESSAGES.noTimeframe);
  try {
    return parseTimeframe(value);
  } catch {
    throw badRequest(BACKTEST_MESSAGES.unknownTimeframe(value.trim().slice(0, 20)));
  }
}

export function libraryTimeframe(value: string): TimeframeKey {
  const tf = anyTimeframe(value);
  if (!LIBRARY_TIMEFRAMES.includes(tf)) throw badRequest(BACKTEST_MESSAGES.officialTimeframe(tf));
  return tf;
}

/**
 * The largest stop or target accepted, in pips: far beyond any real distance (a million pips of
 * an index is a million points), and small enough that prices built from it stay finite.
 */
export const MAX_PIPS = 1_000_000;

/** Longer than any number a form means (`1000000.0001` is 12 characters). */
const DECIMAL_TEXT_MAX = 64;

/**
 * A number written as form text: decimal notation only (`12`, `-0.5`, `1,5` with a decimal comma,
 * `1e3`), else NaN. `Number()` alone also reads `0x10` (16), `0b11`, `0o7` and `Infinity`, which no
 * form means: `sl_pips=0x10` ran a 16-pip stop.
 */
export function decimalOf(text: string): number {
  // No number a form means is longer; and the pattern has one way to match each text (`\d+\.?\d*`
  // had n: `1111…x` backtracked quadratically, 6 s at 30,000 digits).
  if (text.length > DECIMAL_TEXT_MAX) return Number.NaN;
  const plain = text.trim().replace(',', '.');
  return /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i.test(plain) ? Number(plain) : Number.NaN;
}

/** A pips field: absent/empty → undefined; else a number from 0 to MAX_PIPS (JSON number or text, comma accepted). */
export function pipsField(body: Body, name: string): number | undefined {
  const value = body[name];
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return undefined;
  // A list (`sl_pips=10&sl_pips=20` in a form) is the API's one-value 400, as docs/api.md shows it.
  if (Array.isArray(value)) throw badRequest(MSG.singleValueExpected(name));
  const number = typeof value === 'number' ? value : typeof value === 'string' ? decimalOf(value) : NaN;
  if (!Number.isFinite(number) || number < 0 || number > MAX_PIPS) throw badRequest(BACKTEST_MESSAGES.badPips(name, typeof value === 'object' ? JSON.stringify(value) : value));
  return number;
}

export interface Exits {
  slMode: 'internal' | 'external';
  slPips?: number;
  tp1Pips?: number;
  tp2Pips?: number;
}

/**
 * Stop and targets: `sl_mode` when given; otherwise sl_pips = 0 means the internal stop (the
 * web form's convention, folder `_sl0`), otherwise the personal strategy's own sl_mode, otherwise
 * external. External needs sl_pips and tp1_pips; internal defaults TP1/TP2 to 1R/2R.
 */
export function exitsOf(body: Body, strategySlMode: 'internal' | 'external' | null): Exits {
  const slPips = pipsField(body, 'sl_pips');
  const tp1Pips = pipsField(body, 'tp1_pips');
  const tp2Pips = pipsField(body, 'tp2_pips');
  // text(): a list or an object is the one-value 400, a number is an invalid mode (both were ignored).
  const given = text(body, 'sl_mode').toLowerCase();
  if (given && given !== 'internal' && given !== 'external') throw badRequest(BACKTEST_MESSAGES.slModeInvalid);
  const slMode = (given || (slPips === 0 ? 'internal' : slPips === undefined && strategySlMode ? strategySlMode : 'external')) as Exits['slMode'];
  const positive = (v: number | undefined) => (v !== undefined && v > 0 ? v : undefined);
  if (slMode === 'internal') {
    const tp1 = positive(tp1Pips);
    const tp2 = positive(tp2Pips);
    if (tp1 !== undefined && tp2 !== undefined && tp2 < tp1) throw badRequest(BACKTEST_MESSAGES.tp2BelowTp1);
    return { slMode, tp1Pips: tp1, tp2Pips: tp2 };
  }
  if (!positive(slPips)) throw badRequest(BACKTEST_MESSAGES.slRequired);
  // The stop names the result folder (`_sl{N}`, 4 decimals, under 1,000,000: core's
  // resultFolderName): a stop it cannot name was a 500 at the folder, so it is refused here.
  if (slPips! >= MAX_PIPS || Number(slPips!.toFixed(4)) === 0) throw badRequest(BACKTEST_MESSAGES.slOutOfRange(body.sl_pips));
  if (!positive(tp1Pips)) throw badRequest(BACKTEST_MESSAGES.tp1Required);
  const tp2 = positive(tp2Pips);
  if (tp2 !== undefined && tp2 < tp1Pips!) throw badRequest(BACKTEST_MESSAGES.tp2BelowTp1);
  return { slMode, slPips, tp1Pips, tp2Pips: tp2 };
}

/**
 * The largest normalised parameters a run stores, serialised (UTF-8 bytes). The run row's `params`
 * and the charge procedure's `p_params` are MySQL TEXT (65,535 bytes): past it the charge was a 500.
 * Real parameters take well under 1 KB (the longest official signature with its defaults: 236
 * bytes; under 8 KB with its five texts at core's 256-character bound, even as JSON escapes, so no
 * official request is ever refused here). Core bounds each text; this bounds their sum, which a
 * user strategy's 30 own parameters could otherwise push past 64 KB.
 */
export const PARAMS_STORED_MAX_BYTES = 16 * 1024;

/** The parameters as the run row stores them, or the 400 when they would not fit (checked before the charge). */
export function storedParams(params: StrategyParams): string {
  const json = JSON.stringify(params);
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes > PARAMS_STORED_MAX_BYTES) throw badRequest(BACKTEST_MESSAGES.paramsTooLarge(Math.ceil(bytes / 1024), PARAMS_STORED_MAX_BYTES / 1024));
  return json;
}
