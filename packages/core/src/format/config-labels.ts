import { findParam } from '../catalogue/params.js';
import { findStrategy } from '../catalogue/strategies.js';
import { findSymbol } from '../catalogue/symbols.js';
import { formatCompactFr } from './french.js';

/**
 * The Config sheet's rows as a French reader sees them in the statistics modal (docs/report.md
 * "Display rules"): a label per metric name (the raw name stays available, e.g. in a tooltip) and
 * values in words or French numbers. The workbook itself keeps the raw names: scripts read them.
 */
const CONFIG_LABELS: Readonly<Record<string, string>> = {
  strategy: 'Stratégie',
  strategy_label: 'Nom de la stratégie',
  strategy_source: 'Origine de la stratégie',
  symbol: 'Instrument',
  timeframe: 'Unité de temps',
  start_date: 'Début de la période',
  end_date: 'Fin de la période',
  sl_mode: 'Stop-loss',
  sl_pips: 'Stop-loss (pips)',
  tp1_pips: 'TP1 (pips)',
  tp2_pips: 'TP2 (pips)',
  pip_size: 'Taille du pip',
  warmup_candles: 'Bougies de préchauffage',
  lower_timeframe: 'Unité de temps inférieure (ambiguïtés)',
  same_candle_rule: 'SL et TP dans la même bougie',
  entry_candle_rule: 'Bougie de remplissage',
  sessions_utc: 'Sessions (UTC)',
  golden_hours_min_trades: 'Trades résolus min. par golden hour',
  golden_hours_utc: 'Golden hours (UTC)',
  spread_pips: 'Spread (pips)',
  spread_by_hour_pips: 'Spread par heure UTC (pips)',
  spread_from_data: 'Spread lu dans les données',
  spread_point_size: 'Taille d’un point de spread',
  spread_data_candles: 'Bougies avec un spread',
  commission_pips: 'Commission (pips)',
  commission_per_lot: 'Commission par lot',
  account_currency: 'Devise du compte',
  slippage_pips: 'Slippage (pips)',
  price_rule: 'Règle de prix',
  engine_version: 'Version du moteur',
  run_id: 'Identifiant du run',
  user_id: 'Utilisateur',
  run_seq: 'N° de run',
};

const VALUE_WORDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  sl_mode: { internal: 'Interne (au bord de la zone)', external: 'Externe (en pips)' },
  strategy_source: { official: 'Officielle', 'signal function': 'Personnelle (Python)' },
};

/** The French label of a Config metric: ours, else the parameter's catalogue label, else the name itself. */
export function configLabel(metric: string): string {
  const name = metric.trim();
  return CONFIG_LABELS[name] ?? findParam(name)?.label ?? name;
}

/** A Config value in French: words for codes, labels for a strategy or an instrument, French numbers. */
export function configValueText(metric: string, value: unknown): string {
  const name = metric.trim();
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Oui' : 'Non';
  if (typeof value === 'number') return formatCompactFr(value, 10);
  const text = String(value);
  // A list of numbers written by the engine (the spread of each UTC hour): French numbers too.
  if (/^-?\d+(\.\d+)?( -?\d+(\.\d+)?)+$/.test(text)) return text.split(' ').map((n) => formatCompactFr(Number(n), 10)).join(' ');
  const word = VALUE_WORDS[name]?.[text];
  if (word) return word;
  if (name === 'strategy') return findStrategy(text)?.label ?? text;
  if (name === 'symbol') {
    const symbol = findSymbol(text);
    return symbol && symbol.label !== symbol.symbol ? `${symbol.label} (${symbol.symbol})` : text;
  }
  return text;
}
