/**
 * The catalogue as the web app reads it: strategies, parameters, symbols and timeframes all come
 * from @bt/core/catalogue; this file adds only lookups for display.
 */
import { STRATEGIES, SYMBOLS, findParam, findStrategy, findSymbol } from '@bt/core/catalogue';
import type { ParamDefinition, StrategyDefinition, SymbolDefinition } from '@bt/core/catalogue';

export function strategyLabel(key: string): string {
  return findStrategy(key)?.label ?? key;
}

/** Official strategies sorted by their French label (the picker's order). */
export function officialStrategies(): StrategyDefinition[] {
  return [...STRATEGIES].sort((a, b) => a.label.localeCompare(b.label, 'fr'));
}

/** Symbols sorted by display label. */
export function symbolsByLabel(): SymbolDefinition[] {
  return [...SYMBOLS].sort((a, b) => a.label.localeCompare(b.label, 'fr'));
}

export function symbolLabel(symbol: string): string {
  return findSymbol(symbol)?.label ?? symbol;
}

export function paramDefinition(name: string): ParamDefinition | undefined {
  return findParam(name);
}
