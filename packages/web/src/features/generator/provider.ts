/**
 * Naming the strategy generator honestly (docs/web.md "Strategy generation"): 'IA' only when the
 * server has a chat model configured; otherwise it is the built-in prompt parser, the
 * 'générateur intégré'. The server says which (GET /api/gpt/provider, and `provider` in each
 * generation's answer).
 */
export type GeneratorProvider = 'openai' | 'builtin';

export function readProvider(value: unknown): GeneratorProvider | null {
  const provider = value && typeof value === 'object' ? (value as Record<string, unknown>).provider : value;
  return provider === 'openai' || provider === 'builtin' ? provider : null;
}

export interface GeneratorTexts {
  /** The backtest form's toggle. */
  toggle: string;
  /** The panel's heading. */
  title: string;
  /** What the panel says about the generator ('' when nothing needs saying). */
  hint: string;
  /** The personal strategies picker's label. */
  picker: string;
}

export const BUILTIN_NAME = 'générateur intégré';

export function generatorTexts(provider: GeneratorProvider | null): GeneratorTexts {
  if (provider === 'openai') {
    return { toggle: 'Générer avec l’IA', title: 'Générer une stratégie avec l’IA', hint: '', picker: 'Mes stratégies (IA / import)' };
  }
  if (provider === 'builtin') {
    return {
      toggle: 'Générer une stratégie (générateur intégré)',
      title: 'Générer une stratégie avec le générateur intégré',
      hint: 'Aucun modèle de langage n’est configuré sur ce serveur : le générateur intégré lit ta description (order block, FVG, FVG impulsive ou englobante, filtres RSI et EMA, sens, attentes, profondeur de retour, heures ou session) et compose la stratégie à partir des briques du catalogue.',
      picker: 'Mes stratégies (générées / importées)',
    };
  }
  return { toggle: 'Générer une stratégie', title: 'Générer une stratégie', hint: '', picker: 'Mes stratégies (générées / importées)' };
}

/** The label of a personal strategy's origin: 'IA' only for a chat model's. */
export function strategyOriginLabel(source: string, provider: GeneratorProvider | null): string {
  if (source !== 'gpt') return 'Import .py';
  return provider === 'openai' ? 'IA' : provider === 'builtin' ? 'Générateur intégré' : 'Générée';
}

/** Who wrote a generated strategy, from the generation's answer (its `provider`). */
export function createdByText(provider: GeneratorProvider | null): string {
  return provider === 'openai' ? 'Stratégie créée par l’IA' : provider === 'builtin' ? `Stratégie créée par le ${BUILTIN_NAME}` : 'Stratégie créée';
}
