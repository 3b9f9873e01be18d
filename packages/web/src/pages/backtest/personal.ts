/** AI generation and .py import answers (docs/product.md §2.4, §2.5, §2.7, §2.8). */
import { HttpError, NetworkError, errorDetail } from '../../api/errors.js';
import { readProvider, type GeneratorProvider } from '../../features/generator/provider.js';

export const PERSONAL_MESSAGES = {
  promptRequired: 'Décris la logique de ta stratégie.',
  cannotGenerate: 'Stratégie impossible à générer. Reformule plus clairement la logique.',
  notReady: "La stratégie n'est pas encore disponible. Réessaie dans 2s ou régénère.",
  generationError: 'Erreur génération GPT',
  importUnexpected: 'Import : réponse inattendue',
  importFailed: 'Import impossible. Vérifie le .py.',
  downloadFailed: 'Téléchargement impossible',
} as const;

export type GenerationResult =
  | { kind: 'done'; strategyId: string; comment: string; provider: GeneratorProvider | null }
  | { kind: 'error'; message: string }
  | { kind: 'login' };

export function generationResult(answer: unknown): GenerationResult {
  const record = answer && typeof answer === 'object' ? (answer as Record<string, unknown>) : {};
  const id = record.strategy_id ?? record.id;
  if (record.success === false || record.error) {
    return { kind: 'error', message: errorDetail(record) ?? PERSONAL_MESSAGES.cannotGenerate };
  }
  if (typeof id !== 'string' && typeof id !== 'number') return { kind: 'error', message: PERSONAL_MESSAGES.cannotGenerate };
  return { kind: 'done', strategyId: String(id), comment: typeof record.comment === 'string' ? record.comment : '', provider: readProvider(record.provider) };
}

/** A 401 reopens the login prompt (docs/product.md §2.8); other failures show the server's words or the default. */
export function generationFailure(error: unknown): GenerationResult {
  if (error instanceof HttpError && error.status === 401) return { kind: 'login' };
  if (error instanceof HttpError) return { kind: 'error', message: error.detail || PERSONAL_MESSAGES.generationError };
  return { kind: 'error', message: PERSONAL_MESSAGES.generationError };
}

/** The imported strategy's id: {strategy: {id}} or {id} / {strategy_id}. */
export function importedStrategyId(answer: unknown): string | null {
  const record = answer && typeof answer === 'object' ? (answer as Record<string, unknown>) : {};
  const strategy = record.strategy && typeof record.strategy === 'object' ? (record.strategy as Record<string, unknown>) : record;
  const id = strategy.id ?? strategy.strategy_id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
}

/**
 * Statuses by which the server says the file itself is wrong (checks, dry run, size, type): the
 * spec's 'Import impossible. Vérifie le .py.' then says what to look at. Other refusals (409 too
 * many strategies, 429 daily quota or runs in flight, 503 sandbox off or full) are not cured by
 * editing the file, so their detail is shown alone (docs/web.md, "Backtest screen").
 */
const FILE_PROBLEM_STATUSES = new Set([400, 413, 415, 422]);

export function importFailureMessage(error: unknown): string {
  if (error instanceof HttpError && error.detail) {
    return FILE_PROBLEM_STATUSES.has(error.status) ? `${PERSONAL_MESSAGES.importFailed} ${error.detail}` : error.detail;
  }
  // No answer at all: the file was maybe never read, so the app's network sentence, not advice about it.
  if (error instanceof NetworkError) return error.message;
  return PERSONAL_MESSAGES.importFailed;
}
