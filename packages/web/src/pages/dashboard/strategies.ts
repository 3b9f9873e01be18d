/** Strategy cards of the dashboard (docs/product.md §2.3 "User strategy"): the fields the card and its modals show. */
import { parseUserStrategy, strategyItems, type UserStrategy } from '../backtest/userStrategies.js';

export interface StrategyCardData extends UserStrategy {
  fileName: string;
  /** The strategy's own comment (AI explanation or the file's DESCRIPTION). */
  description: string;
  /** The user's note (comment_user). */
  note: string;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function parseStrategyCard(entry: unknown): StrategyCardData | null {
  const base = parseUserStrategy(entry);
  if (!base) return null;
  const record = entry as Record<string, unknown>;
  const meta = record.meta && typeof record.meta === 'object' ? (record.meta as Record<string, unknown>) : {};
  return {
    ...base,
    fileName: text(record.display_filename) || `${base.id}.py`,
    description: text(record.comment) || text(meta.comment),
    note: text(record.comment_user) || text(meta.comment_user),
  };
}

export function parseStrategyCards(answer: unknown): StrategyCardData[] {
  return strategyItems(answer).map(parseStrategyCard).filter((s): s is StrategyCardData => s !== null);
}

export { strategyOriginLabel as sourceLabel } from '../../features/generator/provider.js';

export function slModeLabel(mode: string | null): string {
  return mode === 'internal' ? 'SL interne' : mode === 'external' ? 'SL externe' : '';
}
