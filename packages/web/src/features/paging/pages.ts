/**
 * Lists loaded page by page ("Afficher plus"): each click asks the server for the next page only,
 * because the server caps `limit` (the admin's lists) or the whole list grows with the user's
 * history (the dashboard's backtests). Apart from React so node:test reads it.
 */

export interface PageSizes {
  /** The first page's size (the archive shows 5 before its pages of 10). */
  first: number;
  next: number;
}

export interface PageRequest {
  limit: number;
  offset: number;
}

export interface Paged<T> {
  /** Distinct rows, in the server's order. */
  items: T[];
  /**
   * Rows the server has handed so far, duplicates included: the next page's offset. Runs added at
   * the top between two clicks push older rows down, so the next page repeats a few already shown
   * (dropped by id); counting them keeps the list moving forward instead of asking for the same
   * rows again.
   */
  offset: number;
  /** The listing's count when it gives one (the backtests' `total`), else null. */
  total: number | null;
  /** The last page came back full: there may be more. */
  full: boolean;
}

export function firstPage(sizes: PageSizes): PageRequest {
  return { limit: sizes.first, offset: 0 };
}

export function nextPage(list: Paged<unknown>, sizes: PageSizes): PageRequest {
  return { limit: sizes.next, offset: list.offset };
}

/**
 * The list once the answer to `request` is in: offset 0 starts the list again (a reload, a
 * deletion, a restoration), any other offset appends the rows not already shown.
 */
export function mergePage<T>(list: Paged<T> | null, request: PageRequest, rows: readonly T[], idOf: (row: T) => string | number, total: number | null = null): Paged<T> {
  const restart = request.offset === 0 || !list;
  const items = restart ? [] : [...list.items];
  const seen = new Set(items.map((row) => String(idOf(row))));
  for (const row of rows) {
    const id = String(idOf(row));
    if (seen.has(id)) continue;
    seen.add(id);
    items.push(row);
  }
  return { items, offset: request.offset + rows.length, total, full: rows.length >= request.limit };
}

/** Whether "more" has something to ask for: the last page was full and the count, if known, is not reached. */
export function hasMore(list: Paged<unknown> | null): boolean {
  if (!list || !list.full) return false;
  return list.total === null || list.offset < list.total;
}

/** How many rows the next click can add (for "Afficher N de plus"). */
export function nextCount(list: Paged<unknown>, sizes: PageSizes): number {
  return list.total === null ? sizes.next : Math.max(0, Math.min(sizes.next, list.total - list.offset));
}

/**
 * The list with one row changed in place (a user's credits after +1 / −1): the row keeps its
 * position, and the pages still to come are asked from the same offset.
 */
export function updateRow<T>(list: Paged<T>, id: string | number, idOf: (row: T) => string | number, change: (row: T) => T): Paged<T> {
  const key = String(id);
  return { ...list, items: list.items.map((row) => (String(idOf(row)) === key ? change(row) : row)) };
}

/**
 * The list without one row (deleted): the pages still to come are asked one row earlier, since
 * the server's list lost it too, and the count drops by one.
 */
export function removeRow<T>(list: Paged<T>, id: string | number, idOf: (row: T) => string | number): Paged<T> {
  const key = String(id);
  const items = list.items.filter((row) => String(idOf(row)) !== key);
  if (items.length === list.items.length) return list;
  return { ...list, items, offset: Math.max(0, list.offset - 1), total: list.total === null ? null : Math.max(0, list.total - 1) };
}
