/**
 * The Monte Carlo panel's words and numbers, written the French way (docs/web.md, "Numbers and
 * labels"): counts grouped ('1 004 R nets', '10 000 tirages') with the narrow no-break space, so
 * a count never splits over two lines either.
 */
import { formatCompactFr, formatIntegerFr, formatNumberFr } from '@bt/core/format';
import type { MonteCarloMethod } from '@bt/core/montecarlo';
import { PANEL_RUNS } from './job.js';

/** The line above the panel's fields: how many draws, of what, how many R. */
export function monteCarloIntro(method: MonteCarloMethod, sequenceLength: number): string {
  const how = method === 'bootstrap' ? 'avec remise' : 'dans un ordre aléatoire';
  return `${formatIntegerFr(PANEL_RUNS)} tirages ${how} des ${formatIntegerFr(sequenceLength)} R nets de la séquence (graine 1) : ce que la chance seule peut faire du même avantage.`;
}

/** A percentile or observed value: streaks are whole counts, R values keep 2 decimals. */
export function monteCarloValue(value: number, wholeCount: boolean): string {
  return wholeCount ? formatIntegerFr(value) : formatNumberFr(value, 2);
}

/**
 * The histogram's axes, ticks written the French way as the result view's other charts are
 * (EquityChart.tsx): Plot's own format is English, and a narrow range such as a shuffle's
 * drawdowns from 5 to 8 R showed '5.2', '5.4'.
 */
export function histogramAxes(label: string) {
  const tickFormat = (value: number) => formatCompactFr(value, 2);
  return {
    x: { label, tickFormat },
    y: { label: 'Part des tirages (%)', grid: true, tickFormat },
  };
}
