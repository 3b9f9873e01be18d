/**
 * The admin console's calls (docs/admin.md), one function each, over the shared client. A 403
 * on /api/admin/* is an answer here, never a login redirect (api/authRedirect.ts).
 */
import type { ApiClient } from './client.js';
import type { FileFetcher } from './files.js';
import { BREAKDOWN_KINDS, type BreakdownKind } from '@bt/core/catalogue';
export { BREAKDOWN_KINDS, type BreakdownKind };

export interface AdminUser {
  id: number;
  email: string;
  username: string;
  plan: string;
  credits: number;
  is_blocked: boolean;
  role?: string;
  /** A user's name that is, or looks like, a reserved one (taken before the rule, docs/admin.md). */
  reserved_username?: boolean;
  email_verified?: boolean;
  created_at?: string;
  last_seen?: string | null;
  deleted?: boolean;
}

/** The orders of GET get_users, applied by the server before the page is cut (docs/admin.md). */
export type AdminUserSort = 'newest' | 'email' | 'username' | 'credits';

export interface HistoryLine {
  id: number;
  date: string;
  label: string;
  type: string;
  method: string;
  price_eur: number | null;
  price_paid: number | null;
  credits_delta: number | null;
  balance_after?: number | null;
  reference?: string | null;
  username?: string;
  user_id?: number;
}

export interface ActionAnswer {
  status?: string;
  detail?: string;
  [field: string]: unknown;
}

export type RangeKey = 'day' | 'week' | 'month' | 'all' | 'custom';

/** What every statistics call takes: the range, and both days for a custom one. */
export interface RangeQuery {
  range: RangeKey;
  start?: string;
  end?: string;
}

export interface Overview {
  range: RangeKey;
  start: string | null;
  end: string;
  total_sales_eur: number;
  /** Money gone back to buyers in the range (refunds, disputes), and sales net of it. */
  refunds_eur: number;
  net_sales_eur: number;
  total_credits_bought: number;
  credits_offered: number;
  backtests_count: number;
  total_users: number;
  new_users: number;
  active_now: number;
  deleted_users: number;
  unsubscribed_users: number;
  failed_payments: number;
}


export type BreakdownItem = Record<string, unknown>;

export interface HeatmapRow {
  label: string;
  hours: number[];
}

export interface DetailsAnswer {
  kpi: string;
  columns?: string[];
  rows: Record<string, unknown>[];
  total: number;
  limit: number;
  offset: number;
}

export interface DetailsFilters {
  weekday?: number;
  hour?: number;
  limit?: number;
  offset?: number;
}

export interface BacktestSummaryItem {
  id: number | string;
  run_id?: string;
  folder: string;
  user?: string;
  user_id?: number;
  symbol: string;
  timeframe: string;
  strategy: string;
  strategy_label?: string;
  period: string;
  winrate_tp1: number | string | null;
  winrate_tp2?: number | string | null;
  total: number;
  tp1: number;
  tp2: number;
  sl: number;
  sl_mode?: string;
  params?: { sl_pips?: number; sl?: number; [name: string]: unknown };
  duration_ms?: number;
  created_at?: string;
}

export type ArchiveType = 'gpt' | 'import';

export interface ArchiveOverview {
  total_archived: number;
  openai_failures: number;
  avg_generation_seconds: number | null;
  avg_attempts: number | null;
  dry_run_failures: number;
}

export interface ArchiveEntry {
  id: number | string;
  type: ArchiveType;
  strategy_id: string;
  display_name: string;
  sl_mode?: string | null;
  user_id?: number | null;
  user?: string | null;
  status?: string;
  timestamp: number;
  created_at?: string;
  meta_present?: boolean;
  meta?: Record<string, unknown> | null;
  files?: { name: string; rel?: string; bytes?: number }[];
  note?: string | null;
  deleted?: boolean;
  source?: string;
}

export interface FsRoot {
  key: string;
  label: string;
  path: string;
  scope: string;
}

export interface FsEntry {
  name: string;
  type: 'dir' | 'file';
  rel_path: string;
  bytes: number | null;
  mtime_iso: string | null;
  ext: string;
  scope: string;
  depth?: number;
}

export interface FsTree {
  root: string;
  path: string;
  entries: FsEntry[];
  total: number;
  truncated?: boolean;
  depth: number;
  limit: number;
  offset: number;
}

export interface ReindexAnswer {
  status: string;
  detail?: string;
  result: { ok: boolean; datasets: number; files: number; root: string; errors?: { path: string; detail: string }[]; elapsed_ms?: number };
}

export interface RecreateCount {
  email: string;
  deletions: number;
  recreations: number;
  blocked: boolean;
  updated_at?: string;
}

export interface InvoiceFile {
  rel: string;
  name: string;
  bytes: number;
  mtime: string;
}

/** A payment situation to settle (docs/admin.md "Payments to settle"). */
export interface PaymentAttentionItem {
  id: number;
  kind: string;
  /** The kind's French sentence: what to do. */
  label: string;
  provider: string;
  provider_reference: string;
  payment_id: number | null;
  payment_reference: string | null;
  user_id: number | null;
  amount_cents: number | null;
  currency: string | null;
  message: string;
  created_at: string;
  resolved_at: string | null;
  resolved_by: number | null;
  note: string | null;
}

export type PaymentAttentionStatus = 'open' | 'resolved' | 'all';

export interface ImportFileLine {
  file: string;
  symbol?: string;
  timeframe?: string;
  month?: string;
  rows?: number;
  path?: string;
}

export interface ImportAnswer {
  status?: string;
  target_month: string;
  mode: 'skip' | 'overwrite';
  dry_run: boolean;
  added: ImportFileLine[];
  skipped: ImportFileLine[];
  overwritten: ImportFileLine[];
  errors: { file: string; detail: string }[];
}

export interface ImportRequest {
  file?: Blob | null;
  fileName?: string;
  sourceUrl?: string;
  targetMonth: string;
  mode: 'skip' | 'overwrite';
  dryRun: boolean;
}

const rangeParams = (range: RangeQuery) => ({ range: range.range, start: range.range === 'custom' ? range.start : undefined, end: range.range === 'custom' ? range.end : undefined });

/** `fetchFile` serves the downloads, whose names come from the server (api/files.ts). */
export function makeAdminCalls(api: ApiClient, fetchFile: FileFetcher) {
  const A = '/api/admin';
  return {
    // Users and history.
    users: (query: { q?: string; sort?: AdminUserSort; limit: number; offset: number }) =>
      api.get<{ users: AdminUser[]; total: number }>(`${A}/get_users`, { query: { q: query.q || undefined, sort: query.sort, limit: query.limit, offset: query.offset } }),
    userHistory: (userId: number) => api.get<{ user: AdminUser; history: HistoryLine[]; total: number }>(`${A}/user_history/${userId}`),
    addCredit: (userId: number, amount = 1) => api.post<ActionAnswer & { credits: number }>(`${A}/add_credit`, { user_id: userId, amount }),
    removeCredit: (userId: number, amount = 1) => api.post<ActionAnswer & { credits: number }>(`${A}/remove_credit`, { user_id: userId, amount }),
    deleteUser: (userId: number) => api.post<ActionAnswer>(`${A}/delete_user`, { user_id: userId }),
    globalHistory: (limit: number, offset: number) => api.get<{ items: HistoryLine[]; total: number }>(`${A}/global_history`, { query: { limit, offset } }),
    resetHistory: () => api.post<ActionAnswer>(`${A}/history/reset`, { scope: 'all' }),

    // Statistics.
    overview: (range: RangeQuery) => api.get<Overview>(`${A}/metrics/overview`, { query: rangeParams(range) }),
    breakdown: <T = BreakdownItem>(kind: BreakdownKind, range: RangeQuery) =>
      api.get<{ kind: string; items: T[] }>(`${A}/metrics/breakdown`, { query: { kind, ...rangeParams(range) } }),
    details: (kpi: string, range: RangeQuery, filters: DetailsFilters = {}) =>
      api.get<DetailsAnswer>(`${A}/metrics/details`, { query: { kpi, ...rangeParams(range), ...filters } }),
    ledger: (which: 'sales' | 'offered' | 'users_all', range: RangeQuery, page: { limit?: number; offset?: number } = {}) =>
      api.get<DetailsAnswer>(`${A}/metrics/details/${which}`, { query: { ...rangeParams(range), ...page } }),
    resetMetrics: () => api.post<ActionAnswer & { deleted: number }>(`${A}/metrics/reset`, {}),
    rebuildMetrics: () => api.post<ActionAnswer & { added: number; total: number }>(`${A}/metrics/rebuild_from_users`, {}),
    globalStats: () => api.get<Record<string, unknown>>(`${A}/global_stats`),

    // Backtests.
    backtestSummary: (limit: number, offset: number) => api.get<{ items: BacktestSummaryItem[]; total: number }>(`${A}/stats/backtest_summary`, { query: { limit, offset } }),
    downloadXlsx: (query: { id?: string | number; symbol: string; timeframe: string; strategy: string; period: string; sl: number }, fallbackName: string) =>
      fetchFile(`${A}/download_xlsx`, query, fallbackName),

    // Strategy archive.
    archiveOverview: () => api.get<{ data: Record<ArchiveType, ArchiveOverview> }>(`${A}/strategies/overview`),
    archiveRecent: (type: ArchiveType, limit: number, offset = 0) => api.get<{ type: ArchiveType; items: ArchiveEntry[] }>(`${A}/strategies/recent`, { query: { type, limit, offset } }),
    archiveDetail: (type: ArchiveType, id: string | number, timestamp: number) => api.get<ArchiveEntry>(`${A}/strategies/detail`, { query: { type, id, timestamp } }),
    archiveDownload: (type: ArchiveType, id: string | number, ts: number, fallbackName: string) => fetchFile(`${A}/strategies/archive/download`, { type, id, ts }, fallbackName),
    archiveDelete: (type: ArchiveType, id: string | number, ts: number) => api.del<ActionAnswer>(`${A}/strategies/archive`, { query: { type, id, ts } }),
    archiveRestoreAll: (type: ArchiveType) => api.patch<ActionAnswer & { restored: number }>(`${A}/strategies/archive/restore-all`, undefined, { query: { type } }),

    // Disk explorer.
    fsRoots: () => api.get<{ roots: FsRoot[] }>(`${A}/fs/roots`),
    fsTree: (root: string, path: string, depth: number, limit: number, offset: number) =>
      api.get<FsTree>(`${A}/fs/tree`, { query: { root, path, depth, limit, offset } }),
    fsDownload: (root: string, path: string, fallbackName: string) => fetchFile(`${A}/fs/download`, { root, path }, fallbackName),

    // Maintenance.
    reindex: () => api.post<ReindexAnswer>(`${A}/csv/reindex-output`, {}),
    recreateCounts: (limit: number, offset: number) => api.get<{ counts: RecreateCount[]; total: number }>(`${A}/email-recreate`, { query: { limit, offset } }),
    resetRecreate: (email?: string) => api.post<ActionAnswer & { left: number; removed: number }>(`${A}/reset-email-recreate`, email ? { email } : {}),
    paymentAttention: (status: PaymentAttentionStatus, limit: number, offset: number) =>
      api.get<{ items: PaymentAttentionItem[]; total: number; open: number }>(`${A}/payments/attention`, { query: { status, limit, offset } }),
    resolvePaymentAttention: (id: number, note: string) =>
      api.post<ActionAnswer & { item: PaymentAttentionItem }>(`${A}/payments/attention/${encodeURIComponent(String(id))}/resolve`, note ? { note } : {}),
    invoicesInfo: () => api.get<{ count: number; bytes: number }>(`${A}/factures_info`),
    invoicesList: (limit: number, offset: number) => api.get<{ items: InvoiceFile[]; total?: number }>(`${A}/factures_list`, { query: { limit, offset } }),
    invoiceDownload: (rel: string, fallbackName: string) => fetchFile(`${A}/factures_download`, { rel }, fallbackName),
    invoiceDelete: (rel: string) => api.post<ActionAnswer>(`${A}/factures_delete`, { rel }, { query: { rel } }),
    importOutput: (request: ImportRequest) => {
      const form = new FormData();
      if (request.file) form.append('file', request.file, request.fileName ?? 'import.zip');
      if (request.sourceUrl) form.append('source_url', request.sourceUrl);
      form.append('target_month', request.targetMonth);
      form.append('mode', request.mode);
      form.append('dry_run', String(request.dryRun));
      return api.post<ImportAnswer>(`${A}/maintenance/import-output`, form);
    },
  };
}

export type AdminCalls = ReturnType<typeof makeAdminCalls>;
