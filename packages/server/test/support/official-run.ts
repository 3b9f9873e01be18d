/**
 * The official one-month backtest request: EURUSD M15, the 31 days of January 2023 (real smc data
 * the seeded library holds), a built-in strategy. Shared by the tests and the load test (bench/load).
 */
export const OFFICIAL_RUN = {
  strategy: 'fvg_pullback_multi',
  symbol: 'EURUSD',
  timeframe: 'M15',
  start_date: '2023-01-01',
  end_date: '2023-01-31',
  sl_pips: 10,
  tp1_pips: 10,
  tp2_pips: 20,
};
