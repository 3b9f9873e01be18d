import type { QueryInterface } from 'sequelize';

/**
 * MySQL/MariaDB only: a backtest's two writes as stored procedures (docs/queue.md, the raw writes),
 * each one round trip: the charge (the guarded spend, the ledger row and the run's row) instead of
 * six, the finish instead of four. SQLite has no procedures and needs none (its statements go to
 * SQLite in one call).
 *
 * Parameters are typed as the columns they fill (the same conversions as a literal in an INSERT;
 * strings in utf8mb4, in the tables' collation, so that the folder comparison uses the index).
 * It reads with plain consistent reads and inserts VALUES, never INSERT ... SELECT: the latter's
 * shared next-key locks on the folder index made concurrent runs of different users wait on, or
 * deadlock over, each other's gaps. A folder taken meanwhile is the unique index's refusal
 * (ER_DUP_ENTRY), which the caller retries.
 *
 * The procedure is its own transaction (called outside one, in autocommit: one round trip, no
 * BEGIN and COMMIT of the client's), rolled back on any error, which it passes on.
 *
 * One result row: `charged` 1 with the run's id, counter, folder and the balance after; or
 * `charged` 0 with the user's credits and whether the account is deleted (nothing written);
 * no row for an unknown user.
 */
const STR = 'CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci';

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  if (qi.sequelize.getDialect() !== 'mysql') return;
  await qi.sequelize.query('DROP PROCEDURE IF EXISTS bt_charge_backtest');
  await qi.sequelize.query('DROP PROCEDURE IF EXISTS bt_finish_backtest');
  await qi.sequelize.query(FINISH);
  await qi.sequelize.query(`CREATE PROCEDURE bt_charge_backtest(
  IN p_user INT, IN p_cost INT, IN p_now DATETIME(3), IN p_meta TEXT ${STR},
  IN p_run_id VARCHAR(36) ${STR}, IN p_base VARCHAR(200) ${STR}, IN p_source VARCHAR(16) ${STR}, IN p_official TINYINT,
  IN p_strategy VARCHAR(120) ${STR}, IN p_strategy_label VARCHAR(200) ${STR}, IN p_user_strategy_id VARCHAR(40) ${STR},
  IN p_symbol VARCHAR(32) ${STR}, IN p_timeframe VARCHAR(8) ${STR}, IN p_start_date VARCHAR(10) ${STR}, IN p_end_date VARCHAR(10) ${STR},
  IN p_sl_mode VARCHAR(16) ${STR}, IN p_sl_pips DOUBLE, IN p_tp1_pips DOUBLE, IN p_tp2_pips DOUBLE, IN p_params TEXT ${STR},
  IN p_created_at DATETIME(3))
BEGIN
  DECLARE v_credits INT;
  DECLARE v_seq INT;
  DECLARE v_folder VARCHAR(200) ${STR};
  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
  START TRANSACTION;
  UPDATE users SET credits = credits - p_cost, run_seq = run_seq + 1, updated_at = p_now
    WHERE id = p_user AND deleted_at IS NULL AND credits >= p_cost;
  IF ROW_COUNT() <> 1 THEN
    COMMIT;
    SELECT 0 AS charged, credits AS credits, deleted_at IS NOT NULL AS deleted FROM users WHERE id = p_user;
  ELSE
    SELECT credits, run_seq INTO v_credits, v_seq FROM users WHERE id = p_user;
    IF EXISTS (SELECT 1 FROM backtest_runs WHERE user_id = p_user AND folder = p_base) THEN
      SET v_folder = CONCAT(p_base, '_', v_seq);
    ELSE
      SET v_folder = p_base;
    END IF;
    INSERT INTO credit_ledger (user_id, kind, reason, amount, balance_after, reference, meta, created_at)
      VALUES (p_user, 'spend', 'backtest', -p_cost, v_credits, p_run_id, p_meta, p_now);
    INSERT INTO backtest_runs (run_id, user_id, run_seq, folder, status, source, official, strategy, strategy_label,
      user_strategy_id, symbol, timeframe, start_date, end_date, sl_mode, sl_pips, tp1_pips, tp2_pips, params,
      trades, resolved, created_at, updated_at)
      VALUES (p_run_id, p_user, v_seq, v_folder, 'running', p_source, p_official, p_strategy, p_strategy_label,
      p_user_strategy_id, p_symbol, p_timeframe, p_start_date, p_end_date, p_sl_mode, p_sl_pips, p_tp1_pips, p_tp2_pips, p_params,
      0, 0, p_created_at, p_created_at);
    COMMIT;
    SELECT 1 AS charged, LAST_INSERT_ID() AS id, v_seq AS run_seq, v_folder AS folder, v_credits AS credits;
  END IF;
END`);
}

/**
 * The finish as one procedure too, its own transaction: the run turned 'done' only while it is
 * 'running', and then its event (INSERT IGNORE: once per (kind, reference)); one row, `changed`,
 * the UPDATE's row count (0: RunNotRunning, nothing written).
 */
const FINISH = `CREATE PROCEDURE bt_finish_backtest(
  IN p_id INT, IN p_strategy_label VARCHAR(200) ${STR}, IN p_trades INT, IN p_resolved INT, IN p_winrate_tp1 DOUBLE,
  IN p_winrate_tp2 DOUBLE, IN p_summary TEXT ${STR}, IN p_xlsx_path VARCHAR(255) ${STR}, IN p_duration_ms INT, IN p_updated_at DATETIME(3),
  IN e_kind VARCHAR(24) ${STR}, IN e_user_id INT, IN e_occurred_at DATETIME(3), IN e_day VARCHAR(10) ${STR}, IN e_hour INT, IN e_weekday INT,
  IN e_amount_cents INT, IN e_credits INT, IN e_method VARCHAR(32) ${STR}, IN e_category VARCHAR(32) ${STR}, IN e_label VARCHAR(200) ${STR},
  IN e_symbol VARCHAR(32) ${STR}, IN e_timeframe VARCHAR(8) ${STR}, IN e_strategy VARCHAR(120) ${STR}, IN e_duration_ms INT,
  IN e_reference VARCHAR(191) ${STR}, IN e_meta TEXT ${STR})
BEGIN
  DECLARE v_changed INT;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
  START TRANSACTION;
  UPDATE backtest_runs SET status = 'done', strategy_label = p_strategy_label, trades = p_trades, resolved = p_resolved,
    winrate_tp1 = p_winrate_tp1, winrate_tp2 = p_winrate_tp2, summary = p_summary, xlsx_path = p_xlsx_path,
    duration_ms = p_duration_ms, updated_at = p_updated_at
    WHERE id = p_id AND status = 'running';
  SET v_changed = ROW_COUNT();
  IF v_changed = 1 THEN
    INSERT IGNORE INTO events (kind, user_id, occurred_at, day, hour, weekday, amount_cents, credits, method, category, label,
      symbol, timeframe, strategy, duration_ms, reference, meta)
      VALUES (e_kind, e_user_id, e_occurred_at, e_day, e_hour, e_weekday, e_amount_cents, e_credits, e_method, e_category, e_label,
      e_symbol, e_timeframe, e_strategy, e_duration_ms, e_reference, e_meta);
  END IF;
  COMMIT;
  SELECT v_changed AS changed;
END`;

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  if (qi.sequelize.getDialect() !== 'mysql') return;
  await qi.sequelize.query('DROP PROCEDURE IF EXISTS bt_charge_backtest');
  await qi.sequelize.query('DROP PROCEDURE IF EXISTS bt_finish_backtest');
}
