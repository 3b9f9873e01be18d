import type { BacktestWarning, BacktestWarningCode } from '@bt/core/backtest';

type Of<C extends BacktestWarningCode> = Extract<BacktestWarning, { code: C }>;

const plural = (count: number, one: string, many: string) => (Math.abs(count) <= 1 ? one : many);
const number = (value: number | null) => (value === null ? '?' : String(value).replace('.', ','));
const list = (names: readonly string[]) => (names.length ? names.join(', ') : 'aucun paramètre');

/**
 * Core's backtest warnings in French, one sentence per code (core/src/backtest/warnings.ts): what
 * the API answers in a backtest's `warnings`. A code without a sentence here fails to compile, and
 * server/test/backtest-warnings-fr.test.ts checks every code core lists.
 */
export const FRENCH_WARNINGS: { [C in BacktestWarningCode]: (w: Of<C>) => string } = {
  param_ignored: (w) => {
    const reader = w.strategy ? `la stratégie ${w.strategy}` : 'cette stratégie';
    if (w.known && !w.catalogue) return `Paramètre « ${w.given} » ignoré : ${reader} ne le lit pas (elle lit : ${list(w.reads)}).`;
    const hint = w.suggestion ? ` ; voulais-tu dire ${w.suggestion} ?` : '';
    const reads = w.catalogue ? `attendu : l'un de ${list(w.reads)}` : `${reader} lit : ${list(w.reads)}`;
    return `Paramètre inconnu « ${w.given} » ignoré (${reads}${hint}).`;
  },
  param_given_twice: (w) =>
    `Paramètre « ${w.param} » donné deux fois avec des valeurs différentes (${w.first}=${w.firstValue}, ${w.second}=${w.secondValue}) : ${w.kept} est gardé.`,
  ema_fast_slower: (w) => `ema_fast ${w.fast} est plus lente que ema_slow ${w.slow} : le filtre de tendance achète quand ${w.fast} est au-dessus de ${w.slow}, comme demandé.`,
  no_candle_in_period: (w) => `Aucune bougie dans la période : aucun trade (${w.candles} ${plural(w.candles, 'bougie', 'bougies')} dans les données).`,
  // Without the parameter's name: the web form asks for the file's Spread column by default ("quand
  // elle existe", docs/web.md), so this is what a trader reads after most custom files.
  spread_column_missing: () => "Pas de colonne Spread renseignée dans les données : le spread indiqué (ou 0) s'applique à chaque bougie.",
  spread_point_mismatch: (w) =>
    `spread_from_data : la colonne Spread est lue en points de ${number(w.pointSize)} (un dixième de pip), mais les prix sont cotés à ${number(w.quoted)} ; si le point de ton courtier est ${number(w.quoted)}, indique spread_point_size.`,
  entries_skipped_no_risk: (w) =>
    `${w.count} ${plural(w.count, 'entrée ignorée', 'entrées ignorées')} : le stop interne ne laissait aucun risque positif (prix d'ordre au niveau du stop ou au-delà).`,
  sl_tp_same_candle: (w) => {
    const how = w.lowerTimeframe
      ? ` ; ${w.resolved} ${plural(w.resolved, 'départagé', 'départagés')} avec les bougies ${w.lowerTimeframe}, ${w.unresolved} ${plural(w.unresolved, 'laissé', 'laissés')} en SL par prudence`
      : '';
    return `${w.count} ${plural(w.count, 'trade a touché', 'trades ont touché')} le SL et un TP dans la même bougie, ${plural(w.count, 'compté', 'comptés')} comme SL${how}.`;
  },
};

export function frenchWarning(w: BacktestWarning): string {
  return (FRENCH_WARNINGS[w.code] as (w: BacktestWarning) => string)(w);
}

/**
 * A result's warnings in French (the server's own, from normalising the parameters, come first; the
 * caller drops a sentence core says again, such as ema_fast_slower, checked by both). A result without `notices` (a bt-worker of an older version
 * during a rolling update) keeps core's sentences rather than losing them.
 */
export function resultWarnings(result: { warnings: readonly string[]; notices?: readonly BacktestWarning[] }): string[] {
  return Array.isArray(result.notices) ? result.notices.map(frenchWarning) : [...result.warnings];
}
