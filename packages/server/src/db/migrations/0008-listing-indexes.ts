import type { QueryInterface } from 'sequelize';

/**
 * The public top strategies (docs/server.md "Public top strategies") read the best official runs
 * on every home page visit. Their index now holds the order of that list, so the database walks
 * it from the best win rate down and stops after the candidates it needs, instead of sorting every
 * official run (MariaDB: about 200 ms for 22,000 runs) or, on SQLite, whose planner preferred the
 * old (official, status, resolved) index for its range, reading and sorting them all. Every column
 * ascending, read backwards: an index in mixed directions is not used by every MySQL version.
 */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.addIndex('backtest_runs', ['official', 'status', 'winrate_tp1', 'resolved', 'id'], { name: 'backtest_runs_top' });
  await qi.removeIndex('backtest_runs', 'backtest_runs_public');
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.addIndex('backtest_runs', ['official', 'status', 'resolved'], { name: 'backtest_runs_public' });
  await qi.removeIndex('backtest_runs', 'backtest_runs_top');
}
