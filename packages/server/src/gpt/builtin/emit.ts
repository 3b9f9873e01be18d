import type { StrategySpec } from './parse.js';
import { PATTERN_LABELS } from './parse.js';

/**
 * Writes the .py of a composition (docs/strategies-python.md): the pattern detection in Python,
 * written from the same rules as the engine's detectors (docs/engine.md §3; the tests check the
 * zones and signals against core's listZones), the side, minimum size and hour rules in Python,
 * and the catalogue filters declared in FILTERS with their values in PARAMS, so the engine applies
 * them exactly as for an official strategy.
 */
export interface EmittedStrategy {
  source: string;
  detectId: string;
  name: string;
  description: string;
}

const PATTERN_IDS: Record<StrategySpec['pattern'], string> = {
  order_block: 'ob_pullback',
  order_block_gap: 'ob_gap_pullback',
  fvg: 'fvg_pullback',
  fvg_impulsive: 'fvg_impulsive',
  engulfing: 'englobante',
};

const PULLBACK = new Set(['order_block', 'order_block_gap', 'fvg']);

function py(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(value);
  return JSON.stringify(value);
}

export function describeSpec(spec: StrategySpec): string {
  const parts = [`Motif : ${PATTERN_LABELS[spec.pattern]}.`];
  const filters: string[] = [];
  if (spec.rsi) {
    const t = spec.rsi.threshold;
    const period = spec.rsi.period ?? 14;
    filters.push(t !== undefined ? `RSI(${period}) < ${t} à l'achat, > ${100 - t} à la vente` : `RSI(${period}) (seuil par défaut)`);
  }
  if (spec.ema) filters.push(`clôture au-dessus de l'EMA ${spec.ema.period} à l'achat, en dessous à la vente`);
  if (spec.trend) filters.push(`tendance EMA ${spec.trend.fast} au-dessus de l'EMA ${spec.trend.slow} à l'achat, en dessous à la vente`);
  if (filters.length) parts.push(`Filtres : ${filters.join(' ; ')}.`);
  if (spec.side !== 'both') parts.push(spec.side === 'buy' ? 'Achats uniquement.' : 'Ventes uniquement.');
  if (spec.minWait !== undefined || spec.maxWait !== undefined) parts.push(`Attente : ${spec.minWait ?? 3} à ${spec.maxWait ?? 20} bougies.`);
  if (spec.minZonePips !== undefined) parts.push(`Taille minimale de la zone : ${spec.minZonePips} pips.`);
  if (spec.overlap !== undefined) parts.push(`Entrée à ${Math.round(spec.overlap * 1000) / 10} % de profondeur dans la zone.`);
  if (spec.multipleEntries) parts.push('Entrées multiples sur une même zone.');
  if (spec.confirm) parts.push('Bougie de confirmation exigée.');
  if (spec.hours) parts.push(`Signaux entre ${String(spec.hours.from).padStart(2, '0')}h et ${String(spec.hours.to).padStart(2, '0')}h59 UTC${spec.hours.label ? ` (session ${spec.hours.label})` : ''}.`);
  return parts.join(' ');
}

function nameOf(spec: StrategySpec): string {
  const base = { order_block: 'OB pullback', order_block_gap: 'OB gap pullback', fvg: 'FVG pullback', fvg_impulsive: 'FVG impulsive', engulfing: 'Englobante' }[spec.pattern];
  const extra: string[] = [];
  if (spec.rsi) extra.push(spec.rsi.threshold !== undefined ? `RSI<${spec.rsi.threshold}` : 'RSI');
  if (spec.ema) extra.push(`EMA ${spec.ema.period}`);
  if (spec.trend) extra.push(`EMA ${spec.trend.fast}/${spec.trend.slow}`);
  if (spec.hours?.label) extra.push(spec.hours.label);
  else if (spec.hours) extra.push(`${spec.hours.from}h-${spec.hours.to + 1}h`);
  if (spec.side !== 'both') extra.push(spec.side === 'buy' ? 'achats' : 'ventes');
  return [base, ...extra].join(' + ').slice(0, 120);
}

function detectIdOf(spec: StrategySpec): string {
  const words = [PATTERN_IDS[spec.pattern]];
  if (spec.rsi) words.push('rsi');
  if (spec.ema) words.push('ema');
  if (spec.trend) words.push('tendance');
  if (spec.hours) words.push('heures');
  if (spec.side !== 'both') words.push(spec.side === 'buy' ? 'achat' : 'vente');
  return words.join('_');
}

const DETECTORS: Record<StrategySpec['pattern'], string> = {
  fvg: `
    for i in range(2, n):
        # Bullish FVG completed at i: low[i] above high[i-2], middle candle bullish.
        if l[i] > h[i - 2] and c[i - 1] > o[i - 1]:
            add(i, "buy", l[i], h[i - 2], None)
        # Bearish mirror.
        if h[i] < l[i - 2] and c[i - 1] < o[i - 1]:
            add(i, "sell", l[i - 2], h[i], None)`,
  fvg_impulsive: `
    for i in range(2, n):
        body = abs(c[i - 1] - o[i - 1])
        # The middle candle is impulsive: its body is at least half its range and at least
        # the body of each outer candle (docs/engine.md, impulsive rule).
        impulsive = body >= 0.5 * (h[i - 1] - l[i - 1]) and body >= abs(c[i - 2] - o[i - 2]) and body >= abs(c[i] - o[i])
        if not impulsive:
            continue
        if l[i] > h[i - 2] and c[i - 1] > o[i - 1]:
            add(i, "buy", l[i], h[i - 2], min(l[i - 2], l[i - 1], l[i]))
        if h[i] < l[i - 2] and c[i - 1] < o[i - 1]:
            add(i, "sell", l[i - 2], h[i], max(h[i - 2], h[i - 1], h[i]))`,
  order_block: `
    for k in range(0, n - 1):
        j = k + 1
        # Bullish order block: k is bearish, k+1 bullish and closes above the high of k.
        if c[k] < o[k] and c[j] > o[j] and c[j] > h[k]:
            add(j, "buy", h[k], l[k], None)
        # Bearish mirror.
        if c[k] > o[k] and c[j] < o[j] and c[j] < l[k]:
            add(j, "sell", h[k], l[k], None)`,
  order_block_gap: `
    for k in range(0, n - 2):
        j = k + 1
        # As an order block, and the candle k+2 leaves a clean gap above the zone (known at k+2).
        if c[k] < o[k] and c[j] > o[j] and c[j] > h[k] and l[k + 2] > h[k]:
            add(k + 2, "buy", h[k], l[k], None)
        if c[k] > o[k] and c[j] < o[j] and c[j] < l[k] and h[k + 2] < l[k]:
            add(k + 2, "sell", h[k], l[k], None)`,
  engulfing: `
    for i in range(2, n):
        low_body = min(o[i - 1], c[i - 1], o[i - 2], c[i - 2])
        high_body = max(o[i - 1], c[i - 1], o[i - 2], c[i - 2])
        # Bullish engulfing: i bullish, i-1 bearish, the body of i covers the bodies of i-1 and i-2.
        if c[i] > o[i] and c[i - 1] < o[i - 1] and o[i] <= low_body and c[i] >= high_body:
            add(i, "buy", max(h[i - 2], h[i - 1], h[i]), min(l[i - 2], l[i - 1], l[i]), min(l[i - 2], l[i - 1], l[i]))
        if c[i] < o[i] and c[i - 1] > o[i - 1] and o[i] >= high_body and c[i] <= low_body:
            add(i, "sell", max(h[i - 2], h[i - 1], h[i]), min(l[i - 2], l[i - 1], l[i]), max(h[i - 2], h[i - 1], h[i]))`,
};

export function emitPython(spec: StrategySpec): EmittedStrategy {
  const pullback = PULLBACK.has(spec.pattern);
  const filters: string[] = [];
  const params: [string, unknown, string][] = [['side', spec.side, 'buy, sell ou both']];
  if (spec.pattern !== 'engulfing') params.push(['min_zone_pips', spec.minZonePips ?? 0, 'hauteur minimale de la zone, en pips (0 : aucune)']);
  if (spec.hours) {
    params.push(['hour_from', spec.hours.from, 'première heure UTC des signaux']);
    params.push(['hour_to', spec.hours.to, 'dernière heure UTC des signaux (incluse)']);
  }
  if (spec.rsi) {
    filters.push('rsi');
    if (spec.rsi.period !== undefined) params.push(['rsi_key', `RSI_${spec.rsi.period}`, 'colonne RSI du filtre']);
    if (spec.rsi.threshold !== undefined) params.push(['rsi_threshold', spec.rsi.threshold, "achat si RSI < seuil, vente si RSI > 100 - seuil"]);
  }
  if (spec.ema) {
    filters.push('ema_simple');
    params.push(['ema_key', `EMA_${spec.ema.period}`, 'EMA du filtre simple']);
  }
  if (spec.trend) {
    filters.push('tendance_ema');
    params.push(['ema_fast', `EMA_${spec.trend.fast}`, 'EMA rapide de la tendance']);
    params.push(['ema_slow', `EMA_${spec.trend.slow}`, 'EMA lente de la tendance']);
  }
  if (pullback) {
    if (spec.minWait !== undefined) params.push(['min_wait_candles', spec.minWait, 'bougies avant de pouvoir entrer']);
    if (spec.maxWait !== undefined) params.push(['max_wait_candles', spec.maxWait, 'bougies avant expiration de la zone']);
    if (spec.overlap !== undefined) params.push(['min_overlap_ratio', spec.overlap, 'profondeur du retour dans la zone (fraction)']);
    if (spec.multipleEntries) params.push(['allow_multiple_entries', true, 'plusieurs entrées par zone']);
  }
  if (spec.confirm) params.push(['confirm_candle', true, 'bougie de confirmation']);

  const detectId = detectIdOf(spec);
  const name = nameOf(spec);
  const description = describeSpec(spec);
  const zoneArg = pullback ? '"zone": {"top": top, "bottom": bottom}, ' : '';
  const source = `"""${name}

${description}

Généré par bt à partir d'une description en langage naturel. Le motif est détecté ici ; les
filtres de FILTERS, l'entrée, le SL/TP, les statistiques et le classeur sont ceux du moteur bt.
Un signal à l'index i n'utilise que les bougies 0 à i (pas de regard vers le futur).
"""

NAME = ${JSON.stringify(name)}
DESCRIPTION = ${JSON.stringify(description)}
ENTRY_MODE = ${JSON.stringify(pullback ? 'pullback' : 'signal')}
FILTERS = ${JSON.stringify(filters)}
PARAMS = {
${params.map(([k, v, why]) => `    ${JSON.stringify(k)}: ${py(v)},  # ${why}`).join('\n')}
}


def side_allowed(side, params):
    wanted = str(params.get("side", "both")).lower()
    return wanted in ("both", "") or wanted == side


def hour_allowed(time_ms, params):
    if "hour_from" not in params:
        return True
    hour = int(time_ms // 3600000) % 24
    return int(params["hour_from"]) <= hour <= int(params["hour_to"])


def detect_${detectId}(candles, params):
    o, h, l, c, t = candles["open"], candles["high"], candles["low"], candles["close"], candles["time"]
    n = len(c)
    pip = float(candles.get("pip_size") or 0.0001)
    min_size = float(params.get("min_zone_pips", 0) or 0) * pip
    signals = []

    def add(index, side, top, bottom, stop):
        if not side_allowed(side, params) or not hour_allowed(t[index], params):
            return
        if min_size > 0 and top - bottom < min_size * (1 - 1e-9):
            return
        signal = {"index": index, "side": side, ${zoneArg}}
        if stop is not None:
            signal["stop"] = stop
        signals.append(signal)
${DETECTORS[spec.pattern]}
    return signals
`;
  return { source, detectId, name, description };
}
