/**
 * The strategy documentation page's rules (docs/web.md "Strategy documentation"): the `strat`
 * parameter read and written back, the default, the links that lead there, the detail's sections.
 */
import { STRATEGY_DOCS, strategyDoc } from '@bt/core/catalogue';

export const STRATEGY_DOCS_PATH = '/a-savoir/strategies';

/** The first strategy of the catalogue (the documentation's order: families together). */
export const DEFAULT_STRAT = STRATEGY_DOCS[0]!.key;

export interface StratChoice {
  /** The strategy shown. */
  readonly key: string;
  /** The address must be rewritten to `strat={key}` (missing, unknown or differently spelled). */
  readonly rewrite: boolean;
  /** The value asked for when it names no strategy. */
  readonly unknown: string | null;
}

export function stratFromSearch(search: URLSearchParams): StratChoice {
  const asked = search.get('strat');
  if (asked === null || asked.trim() === '') return { key: DEFAULT_STRAT, rewrite: true, unknown: null };
  const doc = strategyDoc(asked);
  if (!doc) return { key: DEFAULT_STRAT, rewrite: true, unknown: asked.slice(0, 80) };
  return { key: doc.key, rewrite: doc.key !== asked, unknown: null };
}

/** The same query with `strat` set (other parameters kept). */
export function searchWithStrat(search: URLSearchParams, key: string): URLSearchParams {
  const next = new URLSearchParams(search);
  next.set('strat', key);
  return next;
}

/** The page of one strategy, or the page itself (first strategy) without a key. */
export function strategyDocHref(key?: string | null): string {
  const known = key ? strategyDoc(key)?.key : undefined;
  return known ? `${STRATEGY_DOCS_PATH}?strat=${encodeURIComponent(known)}` : STRATEGY_DOCS_PATH;
}

/** The anchors of the detail, in page order (the table of contents). */
export const DETAIL_SECTIONS = [
  { id: 'strategie', label: 'Vue d’ensemble' },
  { id: 'conditions', label: 'Conditions d’entrée' },
  { id: 'definitions', label: 'Définitions' },
  { id: 'stop-interne', label: 'Stop interne (SL 0)' },
  { id: 'parametres', label: 'Paramètres' },
] as const;
