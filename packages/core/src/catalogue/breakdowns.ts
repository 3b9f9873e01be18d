/**
 * The breakdowns the admin statistics offer (docs/admin.md, "Breakdowns"), in the order the
 * console shows them: the server computes each one, the web console asks for them by this name.
 */
export const BREAKDOWN_KINDS = [
  'sales_by_method',
  'credits_by_method',
  'revenue_by_day',
  'revenue_by_hour',
  'backtests_by_strategy',
  'backtests_by_symbol',
  'backtests_by_timeframe',
  'heatmap',
  'backtest_duration',
  'credits_flow',
  'active_users_daily',
  'dau_wau_mau',
  'top_customers',
  'failed_payments_by_kind',
] as const;
export type BreakdownKind = (typeof BREAKDOWN_KINDS)[number];
