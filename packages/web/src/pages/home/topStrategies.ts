/**
 * Top-strategy cards of the home page (docs/product.md §1.2, §1.3, §1.8, §1.9): at most 6 cards, the fields each
 * card shows, its result folder, and the message of each failure. The win-rate rules (hot at 70,
 * great at 70, good at 55, fractions read as percentages) come from @bt/core/format.
 */
import { HttpError } from '../../api/errors.js';
import { formatIntegerFr, formatPercentFr, homeWinrateClass as coreHomeClass, isHotWinrate, parseWinrate, periodLabel } from '../../lib/format.js';
import { fieldText as str } from '../../api/fields.js';

export const TOP_STRATEGIES = { maxCards: 6, skeletons: 3, timeoutMs: 6000, loaderMs: 450 } as const;

/**
 * The words of each message; the pictograph the product text puts before three of them (warning,
 * stopwatch, cross) is drawn by the page as an SVG icon chosen by the message's `tone`, since
 * emoji show as empty boxes where no colour-emoji font is installed.
 */
export const TOP_MESSAGES = {
  failed: 'Aucune stratégie trouvée',
  empty: 'Aucune stratégie disponible pour le moment.',
  timeout: 'Connexion lente — données non disponibles pour l’instant.',
  other: 'Impossible de charger les stratégies actuellement.',
} as const;

export type TopMessageTone = keyof typeof TOP_MESSAGES;

export interface TopStrategyCard {
  pair: string;
  timeframe: string;
  strategy: string;
  period: string;
  /** TP1 win rate in percent (0..100), null when absent. */
  winrate: number | null;
  winrateText: string;
  winrateClass: 'great' | 'good' | '';
  hot: boolean;
  trades: number | null;
  /** The trade count as shown: French grouping ('1 004'), an em dash when absent. */
  tradesText: string;
  /** Result folder for the statistics modal; null when the item names none. */
  folder: string | null;
}


/** A folder name, or the folder of a workbook path (…/{folder}/{folder}.xlsx). */
export function folderFromValue(value: unknown): string | null {
  const text = str(value).replace(/\\/g, '/').replace(/\/+$/, '');
  if (!text) return null;
  const parts = text.split('/').filter(Boolean);
  if (parts.length === 0) return null;
  const last = parts[parts.length - 1];
  if (/\.xlsx$/i.test(last)) return parts.length > 1 ? parts[parts.length - 2] : last.replace(/\.xlsx$/i, '');
  return last;
}

/** The result folder of an item: folder, xlsx_folder, bt_folder, xlsxPath, xlsx, meta.folder. */
export function itemFolder(item: Record<string, unknown>): string | null {
  const meta = item.meta && typeof item.meta === 'object' ? (item.meta as Record<string, unknown>) : {};
  for (const value of [item.folder, item.xlsx_folder, item.bt_folder, item.xlsxPath, item.xlsx, meta.folder]) {
    const folder = folderFromValue(value);
    if (folder) return folder;
  }
  return null;
}


export function toCard(item: Record<string, unknown>, strategyLabel: (key: string) => string = (k) => k): TopStrategyCard {
  const winrate = parseWinrate(item.winrate_tp1);
  const trades = Number(item.trades);
  const from = str(item.from_date);
  const to = str(item.to_date);
  const strategyKey = str(item.strategy_name) || str(item.strategy);
  const count = Number.isFinite(trades) && item.trades !== null && item.trades !== '' ? trades : null;
  return {
    pair: str(item.pair) || str(item.symbol),
    timeframe: str(item.timeframe) || str(item.tf),
    strategy: strategyKey ? strategyLabel(strategyKey) : '',
    // The API writes periods `2023-01-01 → 2023-01-31`; the card reads them in French, as the dashboard does.
    period: periodLabel(str(item.period) || (from || to ? `${from} → ${to}` : '')),
    winrate,
    winrateText: winrate === null ? '—' : formatPercentFr(winrate / 100),
    winrateClass: coreHomeClass(item.winrate_tp1) ?? '',
    hot: isHotWinrate(item.winrate_tp1),
    trades: count,
    tradesText: count === null ? '—' : formatIntegerFr(count),
    folder: itemFolder(item),
  };
}

/** The items of the answer: an array, or an object holding one under items/strategies/data. */
export function answerItems(answer: unknown): Record<string, unknown>[] | null {
  const list = Array.isArray(answer)
    ? answer
    : answer && typeof answer === 'object'
      ? ((answer as Record<string, unknown>).items ?? (answer as Record<string, unknown>).strategies ?? (answer as Record<string, unknown>).data)
      : null;
  if (!Array.isArray(list)) return null;
  return list.filter((item): item is Record<string, unknown> => !!item && typeof item === 'object');
}

export type TopStrategiesOutcome = { kind: 'cards'; cards: TopStrategyCard[] } | { kind: 'message'; message: string; tone: TopMessageTone };

const message = (tone: TopMessageTone): TopStrategiesOutcome => ({ kind: 'message', message: TOP_MESSAGES[tone], tone });

export function cardsOutcome(answer: unknown, strategyLabel?: (key: string) => string): TopStrategiesOutcome {
  const items = answerItems(answer);
  if (items === null) return message('other');
  if (items.length === 0) return message('empty');
  return { kind: 'cards', cards: items.slice(0, TOP_STRATEGIES.maxCards).map((item) => toCard(item, strategyLabel)) };
}

/** The message of a failed load: HTTP failure, our 6 s timeout, anything else. */
export function failureTone(error: unknown, timedOut: boolean): TopMessageTone {
  if (timedOut) return 'timeout';
  if (error instanceof HttpError) return 'failed';
  return 'other';
}

/**
 * Loads the cards: aborts after 6 s, and keeps the skeletons at least 450 ms so the grid does
 * not flash. `sleep` and `setTimer` are injected for tests.
 */
export async function loadTopStrategies(deps: {
  fetchTop: (signal: AbortSignal) => Promise<unknown>;
  sleep: (ms: number) => Promise<void>;
  setTimer: (fn: () => void, ms: number) => () => void;
  strategyLabel?: (key: string) => string;
}): Promise<TopStrategiesOutcome> {
  const controller = new AbortController();
  let timedOut = false;
  const cancel = deps.setTimer(() => {
    timedOut = true;
    controller.abort();
  }, TOP_STRATEGIES.timeoutMs);
  const minimum = deps.sleep(TOP_STRATEGIES.loaderMs);
  let outcome: TopStrategiesOutcome;
  try {
    outcome = cardsOutcome(await deps.fetchTop(controller.signal), deps.strategyLabel);
  } catch (error) {
    outcome = message(failureTone(error, timedOut));
  } finally {
    cancel();
  }
  await minimum;
  return outcome;
}
