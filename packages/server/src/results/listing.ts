import type { Order, Sequelize } from 'sequelize';
import { badRequest } from '../app/errors.js';
import { intField, text, type Body } from '../app/input.js';

/** The orders of the dashboard's 'Mes backtests' (docs/product.md §2.9), newest first by default. */
export const RESULT_SORTS = ['newest', 'winrate-desc', 'winrate-asc', 'trades-desc', 'trades-asc', 'pair-az'] as const;
export type ResultSort = (typeof RESULT_SORTS)[number];

/** The largest page; the dashboard asks 9 at a time. */
export const RESULTS_PAGE_MAX = 200;

export const LISTING_MESSAGES = {
  pageInvalid: `Pagination invalide : offset ≥ 0, limit de 1 à ${RESULTS_PAGE_MAX}.`,
  sortInvalid: (value: string) => `Tri inconnu : « ${value.slice(0, 40)} » (${RESULT_SORTS.join(', ')}).`,
} as const;

export interface ListingRequest {
  sort: ResultSort;
  /** null: the whole list (no limit or offset in the query). */
  page: { limit: number; offset: number } | null;
}

/** `sort`, `limit` and `offset` of GET /api/user/backtests; 400 with a French sentence when invalid. */
export function listingRequest(query: Body): ListingRequest {
  const sort = text(query, 'sort') || 'newest';
  if (!(RESULT_SORTS as readonly string[]).includes(sort)) throw badRequest(LISTING_MESSAGES.sortInvalid(sort));
  const paged = text(query, 'limit') !== '' || text(query, 'offset') !== '';
  const page = paged
    ? {
        limit: intField(query, 'limit', { min: 1, max: RESULTS_PAGE_MAX, fallback: 9, message: LISTING_MESSAGES.pageInvalid }),
        offset: intField(query, 'offset', { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: 0, message: LISTING_MESSAGES.pageInvalid }),
      }
    : null;
  return { sort: sort as ResultSort, page };
}

/**
 * Each sort in SQL with the newest run last among equals (the id, unique), so consecutive pages
 * neither overlap nor skip a run. A run without a verdict (no win rate) comes after the others in
 * both directions, as the dashboard always showed it. Text sorts follow the database's order
 * (bytes on SQLite, the collation on MySQL): pairs and timeframes are upper-case ASCII.
 */
export function resultOrder(sort: ResultSort, sequelize: Sequelize): Order {
  const noVerdict = sequelize.literal(`${sequelize.getQueryInterface().quoteIdentifier('winrate_tp1')} IS NULL`);
  switch (sort) {
    case 'newest':
      return [['id', 'DESC']];
    case 'winrate-desc':
      return [[noVerdict, 'ASC'], ['winrateTp1', 'DESC'], ['id', 'DESC']];
    case 'winrate-asc':
      return [[noVerdict, 'ASC'], ['winrateTp1', 'ASC'], ['id', 'DESC']];
    case 'trades-desc':
      return [['trades', 'DESC'], ['id', 'DESC']];
    case 'trades-asc':
      return [['trades', 'ASC'], ['id', 'DESC']];
    case 'pair-az':
      return [['symbol', 'ASC'], ['timeframe', 'ASC'], ['strategyLabel', 'ASC'], ['id', 'DESC']];
  }
}
