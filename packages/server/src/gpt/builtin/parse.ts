import { SESSION_BUCKETS } from '@bt/core/stats';
import { findParam } from '@bt/core/catalogue';

/**
 * The built-in generator's reading of a prompt (French or English) into a composition of the
 * catalogue's building blocks: one pattern, optional catalogue filters (RSI, simple EMA, EMA
 * trend), and the rules around them (side, wait candles, minimum zone size, confirmation candle,
 * retracement depth, multiple entries, hours or a session). No pattern recognised: null, and the
 * caller answers the spec's "Stratégie impossible à générer" sentence.
 */
export type PatternKind = 'order_block' | 'order_block_gap' | 'fvg' | 'fvg_impulsive' | 'engulfing';

export interface StrategySpec {
  pattern: PatternKind;
  side: 'both' | 'buy' | 'sell';
  rsi?: { period?: number; threshold?: number };
  ema?: { period: number };
  trend?: { fast: number; slow: number };
  minWait?: number;
  maxWait?: number;
  minZonePips?: number;
  confirm?: boolean;
  /** Fraction of the zone's height (pullback patterns). */
  overlap?: number;
  multipleEntries?: boolean;
  /** UTC hours of the signal candle, inclusive. */
  hours?: { from: number; to: number; label?: string };
}

export const PATTERN_LABELS: Record<PatternKind, string> = {
  order_block: 'Order block (retour dans la zone)',
  order_block_gap: 'Order block avec gap net (retour dans la zone)',
  fvg: 'FVG (retour dans le gap)',
  fvg_impulsive: 'FVG impulsive (entrée à la bougie suivante)',
  engulfing: 'Englobante 3 bougies (entrée à la bougie suivante)',
};

/** Lower case, accents removed, apostrophes and dashes as spaces, one space between words. */
export function normalizePrompt(prompt: string): string {
  return prompt
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[’'`"«»]/g, ' ')
    .replace(/(\d),(\d)/g, '$1.$2')
    .replace(/[\u2264]/g, '<=')
    .replace(/[\u2265]/g, '>=')
    .replace(/\s+/g, ' ')
    .trim();
}

const NUM = '(\\d+(?:\\.\\d+)?)';
const has = (text: string, pattern: RegExp) => pattern.test(text);

function pattern(text: string): PatternKind | null {
  const ob = has(text, /\b(ob|obs|order ?blocks?|orderblocks?|blocs? d ?ordres?|blocs? d ordres?|zones? d ordres?)\b/);
  const fvg = has(text, /\b(fvg|fvgs|fair value gaps?|imbalances?|desequilibres?|inefficiency|inefficiencies|inefficiences?|gaps? de (juste )?valeur)\b/);
  const impulsive = has(text, /\b(impulsi\w*|impulse|displacement|explosi\w*|bougies? (forte|puissante)s?|strong candle|momentum candle)\b/);
  const engulfing = has(text, /\b(englobant\w*|engulf\w*|avalement|avalante)\b/);
  if (ob) return has(text, /\b(gap|gaps|sans chevauchement|no overlap|clean)\b/) && !fvg ? 'order_block_gap' : 'order_block';
  if (engulfing) return 'engulfing';
  if (fvg && impulsive) return 'fvg_impulsive';
  if (fvg) return 'fvg';
  if (impulsive) return 'fvg_impulsive';
  return null;
}

function side(text: string): StrategySpec['side'] {
  const only = '(?:uniquement|seulement|only|exclusivement)';
  const buyWords = '(?:achats?|acheteu\\w*|acheter|longs?|buys?|bullish|haussi\\w*)';
  const sellWords = '(?:ventes?|vendeu\\w*|vendre|shorts?|sells?|bearish|baissi\\w*)';
  if (new RegExp(`\\b${only} (?:les |des |en )?${buyWords}|\\b${buyWords} ${only}|\\bque (?:des |les )?${buyWords}`).test(text)) return 'buy';
  if (new RegExp(`\\b${only} (?:les |des |en )?${sellWords}|\\b${sellWords} ${only}|\\bque (?:des |les )?${sellWords}`).test(text)) return 'sell';
  const bull = new RegExp(`\\b${buyWords}\\b`).test(text);
  const bear = new RegExp(`\\b${sellWords}\\b`).test(text);
  if (bull && !bear) return 'buy';
  if (bear && !bull) return 'sell';
  return 'both';
}

function rsi(text: string): StrategySpec['rsi'] {
  const oversold = has(text, /\b(survend\w*|oversold|sur vend\w*)\b/);
  const overbought = has(text, /\b(surachet\w*|overbought|sur achet\w*)\b/);
  if (!has(text, /\brsi\b/) && !oversold && !overbought) return undefined;
  const out: { period?: number; threshold?: number } = {};
  const period = /\brsi ?\( ?(\d{1,3}) ?\)|\brsi (?:de |sur |on |over )?(\d{1,3}) ?(?:periodes?|periods?|bougies?|candles?)\b|\brsi (?:period|periode) (?:de )?(\d{1,3})\b/.exec(text);
  if (period) out.period = Number(period[1] ?? period[2] ?? period[3]);
  const below = new RegExp(`\\brsi(?: ?\\(\\d+\\))? ?(?:est |is )?(?:<=?|inferieur a|inferieur au|sous|sous le|en dessous de|below|under|less than|lower than|plus bas que) ?${NUM}`).exec(text);
  const above = new RegExp(`\\brsi(?: ?\\(\\d+\\))? ?(?:est |is )?(?:>=?|superieur a|superieur au|au dessus de|above|over|greater than|higher than|plus haut que) ?${NUM}`).exec(text);
  const named = new RegExp(`\\b(?:seuil|threshold|niveau|level)(?: rsi| du rsi| de rsi)? (?:de |of |a |=)?${NUM}|\\brsi (?:seuil|threshold) (?:de |of |a |=)?${NUM}`).exec(text);
  if (below) out.threshold = Number(below[1]);
  else if (named) out.threshold = Number(named[1] ?? named[2]);
  else if (above) out.threshold = 100 - Number(above[1]);
  else if (oversold || overbought) out.threshold = 30;
  if (out.threshold !== undefined && !(out.threshold > 0 && out.threshold <= 100)) delete out.threshold;
  if (out.period !== undefined && !(out.period >= 2 && out.period <= 200)) delete out.period;
  return out;
}

function emaFilters(text: string): Pick<StrategySpec, 'ema' | 'trend'> {
  const word = '(?:ema|mme|moyennes? mobiles?(?: exponentielles?)?|exponential moving averages?|moving averages?|mm)';
  const mentioned = new RegExp(`\\b${word}\\b`).test(text);
  const trendWord = has(text, /\b(tendance|trend|croisement|crossover|cross)\b/);
  if (!mentioned && !trendWord) return {};
  const pair = new RegExp(`\\b${word} ?(?:de |rapide |fast )?(\\d{1,3}) ?(?:/|et|and|-|,|sur|over|vs|>|au dessus de la|above the)? ?(?:${word} ?)?(?:lente |slow )?(\\d{1,3})\\b`).exec(text);
  if (pair) {
    const a = Number(pair[1]);
    const b = Number(pair[2]);
    if (a >= 2 && b >= 2 && a !== b) return { trend: { fast: Math.min(a, b), slow: Math.max(a, b) } };
  }
  const fastSlow = /\b(?:rapide|fast) (?:de )?(\d{1,3})\b.*\b(?:lente|slow) (?:de )?(\d{1,3})\b/.exec(text);
  if (fastSlow) return { trend: { fast: Number(fastSlow[1]), slow: Number(fastSlow[2]) } };
  const single = new RegExp(`\\b${word} ?(?:de |\\( ?)?(\\d{1,3})\\b`).exec(text);
  if (single && Number(single[1]) >= 2) return { ema: { period: Number(single[1]) } };
  if (trendWord && (mentioned || has(text, /\b(tendance|trend) (haussiere|baissiere|de fond|de fond|up|down|direction)\b|\bdans le sens de la tendance\b|\bwith the trend\b|\bfollowing the trend\b/))) return { trend: { fast: 50, slow: 200 } };
  if (mentioned) return { ema: { period: 50 } };
  return {};
}

function waits(text: string): Pick<StrategySpec, 'minWait' | 'maxWait'> {
  const unit = '(?:bougies?|candles?|barres?|bars?)';
  const range = new RegExp(`\\b(?:entre|between) (\\d{1,3}) (?:et|and) (\\d{1,3}) ${unit}`).exec(text);
  if (range) return { minWait: Number(range[1]), maxWait: Number(range[2]) };
  const out: Pick<StrategySpec, 'minWait' | 'maxWait'> = {};
  const min = new RegExp(`\\b(?:attendre|attend|attends|wait|waiting|patienter|apres|after|delai de|min(?:imum)? wait(?: of)?)(?: au moins| at least| minimum| min)? (\\d{1,3}) ${unit}`).exec(text)
    ?? new RegExp(`\\b(?:au moins|at least|minimum|min) (\\d{1,3}) ${unit} (?:d attente|of waiting|avant|before)`).exec(text);
  if (min) out.minWait = Number(min[1]);
  const max = new RegExp(`\\b(?:max(?:imum)?|au plus|at most|within|dans les|expire(?:s)? (?:apres|after)|pendant|during|valable|valid for)(?: les)? (\\d{1,3}) ${unit}`).exec(text);
  if (max) out.maxWait = Number(max[1]);
  return out;
}

function minZone(text: string): number | undefined {
  const before = new RegExp(`\\b(?:au moins|minimum|min|at least|plus de|more than|superieur a|>=?|d au moins|minimale? de|minimum of|taille min(?:imale)? de)(?: de)? ${NUM} ?pips?\\b`).exec(text);
  if (before) return Number(before[1]);
  const after = new RegExp(`\\b${NUM} ?pips? (?:minimum|min|au moins|or more|ou plus)\\b`).exec(text);
  if (after) return Number(after[1]);
  const size = new RegExp(`\\b(?:zone|gap|fvg|ob|taille|size)s? (?:de |of |d )?(?:au moins |at least )?${NUM} ?pips?\\b`).exec(text);
  return size ? Number(size[1]) : undefined;
}

function overlap(text: string): number | undefined {
  const match = new RegExp(`\\b${NUM} ?% (?:de la zone|du gap|of the zone|of the gap|dans la zone|into the zone|de profondeur|depth|de retracement|retracement|de retour)`).exec(text)
    ?? new RegExp(`\\b(?:profondeur|depth|retracement|retour|penetration)(?: min(?:imum|imale)?)? (?:de |of )?${NUM} ?%`).exec(text);
  if (!match) return has(text, /\b(milieu de la zone|mid(?:dle)? of the zone|50 ?% de la zone|moitie de la zone)\b/) ? 0.5 : undefined;
  const percent = Number(match[1]);
  // Rounded to a tenth of a percent: under 0.05 % that is 0, which the engine refuses (it means no depth).
  const ratio = Math.round(percent * 10) / 1000;
  return ratio > 0 && percent <= 100 ? ratio : undefined;
}

function hours(text: string): StrategySpec['hours'] {
  const h = '(\\d{1,2}) ?(?:h|:00|heures?|h00)';
  const range = new RegExp(`\\b(?:entre|between|de|from) ${h}(?: utc)? (?:et|and|a|to|-) ?${h}`).exec(text) ?? new RegExp(`\\b${h} ?- ?${h}`).exec(text);
  if (range) {
    const from = Number(range[1]);
    const to = Number(range[2]);
    // "de 8h à 12h" is a window that ends at 12:00: the hours 8 to 11 (UTC).
    if (from <= 23 && to <= 24 && from < to) return { from, to: to - 1 };
  }
  const bucket = (name: string) => SESSION_BUCKETS.find((b) => b.name === name)!;
  const session = (name: string, label: string) => ({ from: bucket(name).fromHour, to: bucket(name).toHour, label });
  if (has(text, /\b(chevauchement|overlap) (londres|london)/) || has(text, /\b(londres|london) ?\/ ?(new york|ny)\b/)) return session('Londres/New York', 'Londres/New York');
  if (has(text, /\b(session (de )?londres|london session|session londonienne|londres|london)\b/)) return session('Londres', 'Londres');
  if (has(text, /\b(session (de )?new york|new york session|session americaine|us session|new york|ny session)\b/)) return session('New York', 'New York');
  if (has(text, /\b(session asiatique|asian session|session (de )?tokyo|asie|asia|tokyo)\b/)) return session('Asie', 'Asie');
  return undefined;
}

/** The engine's defaults of the waits, which a file that sets only one of them keeps for the other. */
const DEFAULT_MIN_WAIT = findParam('min_wait_candles')!.default as number;
const DEFAULT_MAX_WAIT = findParam('max_wait_candles')!.default as number;

/**
 * Waits the engine takes (max ≥ 1, min ≤ max), so a prompt never yields a file the generator's own
 * validation refuses: "max 0 bougies" is dropped; a maximum under the default minimum ("valable 2
 * bougies") enters from the next candle; a minimum past the default maximum ("attendre au moins 30
 * bougies") keeps the default window's length after it.
 */
function validWaits(spec: StrategySpec): void {
  if (spec.maxWait !== undefined && spec.maxWait < 1) delete spec.maxWait;
  if (spec.maxWait !== undefined && spec.minWait === undefined && spec.maxWait < DEFAULT_MIN_WAIT) spec.minWait = 1;
  if (spec.minWait !== undefined && spec.maxWait === undefined && spec.minWait > DEFAULT_MAX_WAIT) spec.maxWait = spec.minWait + DEFAULT_MAX_WAIT - DEFAULT_MIN_WAIT;
}

/** The composition a prompt asks for, or null when no pattern of the catalogue is recognised. */
export function parsePrompt(prompt: string): StrategySpec | null {
  const text = normalizePrompt(prompt);
  const kind = pattern(text);
  if (!kind) return null;
  const spec: StrategySpec = { pattern: kind, side: side(text) };
  const r = rsi(text);
  if (r) spec.rsi = r;
  Object.assign(spec, emaFilters(text));
  const pullback = kind === 'order_block' || kind === 'order_block_gap' || kind === 'fvg';
  if (pullback) {
    const w = waits(text);
    if (w.minWait !== undefined) spec.minWait = w.minWait;
    if (w.maxWait !== undefined) spec.maxWait = w.maxWait;
    if (spec.minWait !== undefined && spec.maxWait !== undefined && spec.minWait > spec.maxWait) [spec.minWait, spec.maxWait] = [spec.maxWait, spec.minWait];
    validWaits(spec);
    const o = overlap(text);
    if (o !== undefined) spec.overlap = o;
    if (has(text, /\b(entrees? multiples?|plusieurs entrees|multiple entries|re ?entr\w*|several entries)\b/)) spec.multipleEntries = true;
  }
  if (kind !== 'engulfing') {
    const z = minZone(text);
    if (z !== undefined && z > 0) spec.minZonePips = z;
  }
  if (has(text, /\b(confirmation|confirm\w*|bougie de validation|validation candle)\b/)) spec.confirm = true;
  const hh = hours(text);
  if (hh) spec.hours = hh;
  return spec;
}
