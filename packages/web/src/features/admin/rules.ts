/** The tabs' small rules, apart from React so node:test reads them (docs/web.md, admin console). */
import type { AdminUser, AdminUserSort, BacktestSummaryItem } from '../../api/admin.js';
import type { PageSizes } from './pages.js';

/** Sorted by the server (GET get_users?sort), so each page holds the right rows however many accounts there are. */
export type UserSort = AdminUserSort;
export const USER_SORTS: readonly { key: UserSort; label: string }[] = [
  { key: 'newest', label: 'Plus récents' },
  { key: 'email', label: 'E-mail' },
  { key: 'username', label: 'Nom d’utilisateur' },
  { key: 'credits', label: 'Crédits' },
];
/**
 * The badge beside a username that is, or looks like, a reserved one (`admin`, `supp0rt`…), taken
 * by a user before the names were reserved (docs/admin.md, "The admin account"): the name reads
 * like the team's, the account is not. Only `reserved_username: true` from the server shows it.
 */
export function reservedNameBadge(user: Pick<AdminUser, 'reserved_username'>): { text: string; title: string } | null {
  return user.reserved_username === true ? { text: 'Nom réservé', title: 'Nom pris avant sa réservation : ce compte n’est pas celui de l’équipe.' } : null;
}

/** Users: 100, then 100 more (decided here, docs/web.md). */
export const USER_PAGES: PageSizes = { first: 100, next: 100 };

/**
 * Re-creation counters and billing files: 100, then 100 more (decided here, docs/web.md): the
 * counters were cut at the route's 1,000 without a word, and every sale adds a billing file.
 */
export const RECREATE_PAGES: PageSizes = { first: 100, next: 100 };
export const INVOICE_PAGES: PageSizes = { first: 100, next: 100 };

/** Payments to settle: 50, then 50 more (decided here, docs/web.md); the open ones are few. */
export const ATTENTION_PAGES: PageSizes = { first: 50, next: 50 };

/** A situation's amount: `20,00 EUR`, or an em dash when the server knows none. */
export function attentionAmount(item: { amount_cents: number | null; currency: string | null }): string {
  if (typeof item.amount_cents !== 'number' || !Number.isFinite(item.amount_cents)) return '—';
  const value = (item.amount_cents / 100).toFixed(2).replace('.', ',');
  return item.currency ? `${value} ${item.currency}` : value;
}

/** KPI details and the ledger: the route's default page, then as many more (decided here, docs/web.md). */
export const DETAILS_PAGES: PageSizes = { first: 100, next: 100 };
/** A heatmap cell's backtests: 200 at a time, as it asked before it had pages. */
export const DRILL_DOWN_PAGES: PageSizes = { first: 200, next: 200 };

/** The global history's preview (docs/product.md §3.9), then the loaded lines in pages of 200 (the route's default). */
export const HISTORY_PREVIEW = 5;
export const HISTORY_PAGES: PageSizes = { first: 200, next: 200 };

export const BACKTESTS_PAGE = 20;
/** 20, then 20 more (docs/product.md §3.9). */
export const BACKTESTS_PAGES: PageSizes = { first: BACKTESTS_PAGE, next: BACKTESTS_PAGE };
/** The archive lists: 5, then 10 more (docs/product.md §3.9). */
export const ARCHIVE_PAGES: PageSizes = { first: 5, next: 10 };
/** The summary's stop when the run had none (docs/product.md §3.9). */
export const DEFAULT_SL = 100;

export function stopOf(item: BacktestSummaryItem): number {
  const sl = item.params?.sl_pips ?? item.params?.sl;
  return typeof sl === 'number' && Number.isFinite(sl) ? sl : DEFAULT_SL;
}

export const DEPTH_MAX = 5;
export const LIMITS = [10, 50, 100, 500, 1000, 5000] as const;
export const DEFAULT_LIMIT = 500;

/** The parent folder of a relative path ('' is the root). */
export function parentPath(path: string): string {
  const parts = path.split('/').filter(Boolean);
  parts.pop();
  return parts.join('/');
}

