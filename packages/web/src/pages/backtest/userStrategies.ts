/** Personal strategies (docs/product.md §2.3 "User strategy"): list parsing and the UI lists of their meta. */

/** Where the signed-in user's list stands: asked, answered, or failed. */
export type PersonalListStatus = 'loading' | 'ready' | 'error';

/**
 * The personal picker's first line: a visitor is asked to sign in; a signed-in user sees the list
 * loading, failing ('Erreur de chargement', the dashboard's words), empty or to choose from. A
 * failed or pending list read 'Aucune stratégie pour le moment.', which told a user with
 * strategies that they had none.
 */
export function personalPickerPlaceholder(loggedIn: boolean, status: PersonalListStatus, count: number): string {
  if (!loggedIn) return 'Connecte-toi pour tes stratégies';
  if (count > 0) return '— Choisir —';
  if (status === 'loading') return 'Chargement…';
  if (status === 'error') return 'Erreur de chargement';
  return 'Aucune stratégie pour le moment.';
}

export interface UserStrategy {
  id: string;
  name: string;
  source: 'import' | 'gpt' | string;
  slMode: 'internal' | 'external' | null;
  createdAt: number | null;
  comment: string;
  ui: { hidden: string[]; basic: string[]; advanced: string[] } | null;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export function parseUserStrategy(item: unknown): UserStrategy | null {
  if (!item || typeof item !== 'object') return null;
  const record = item as Record<string, unknown>;
  const id = record.id ?? record.strategy_id;
  if (typeof id !== 'string' && typeof id !== 'number') return null;
  const meta = record.meta && typeof record.meta === 'object' ? (record.meta as Record<string, unknown>) : {};
  const ui = meta.ui && typeof meta.ui === 'object' ? (meta.ui as Record<string, unknown>) : null;
  const slMode = record.sl_mode ?? meta.sl_mode;
  const created = Number(record.created_at);
  return {
    id: String(id),
    name: String(record.display_name ?? record.display_filename ?? id),
    source: typeof record.source === 'string' ? record.source : 'import',
    slMode: slMode === 'internal' || slMode === 'external' ? slMode : null,
    createdAt: Number.isFinite(created) ? created : null,
    comment: String(record.comment_user ?? meta.comment_user ?? record.comment ?? meta.comment ?? ''),
    ui: ui ? { hidden: strings(ui.hidden), basic: strings(ui.basic), advanced: strings(ui.advanced) } : null,
  };
}

/** The items of GET /api/user/strategies: an array, or {items} / {strategies}. */
export function strategyItems(answer: unknown): unknown[] {
  const record = answer && typeof answer === 'object' && !Array.isArray(answer) ? (answer as Record<string, unknown>) : null;
  const list = Array.isArray(answer) ? answer : (record?.items ?? record?.strategies);
  return Array.isArray(list) ? list : [];
}

export function parseUserStrategies(answer: unknown): UserStrategy[] {
  return strategyItems(answer).map(parseUserStrategy).filter((s): s is UserStrategy => s !== null);
}

/** The server signature, when /api/strategy_params answers a list of names (docs/product.md §2.5). */
export function signatureFromAnswer(answer: unknown): string[] | null {
  const params = answer && typeof answer === 'object' && !Array.isArray(answer) ? (answer as Record<string, unknown>).params : answer;
  if (Array.isArray(params) && params.length > 0 && params.every((p) => typeof p === 'string')) return params as string[];
  return null;
}
