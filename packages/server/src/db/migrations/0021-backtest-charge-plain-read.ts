import type { QueryInterface } from 'sequelize';
import * as m0006 from './0006-backtest-procedures.js';

/**
 * MySQL/MariaDB only: bt_charge_backtest (migration 0006) again, its folder-taken check a plain
 * read. 0006 checked with `IF EXISTS (SELECT ...)`, and MariaDB runs a SELECT in a stored
 * program's condition as a locking read (shared next-key locks, at REPEATABLE READ), unlike a
 * `SELECT ... INTO`. For users with no run of that folder yet, the rows it read locked the gap of
 * `backtest_runs_user_folder_unique` past them: for new users the same gap, past the highest user
 * id. Two users' first backtests at once each held it, then each waited for the other's INSERT
 * there: a deadlock, the CALL run again, and past 4 tries a 503 (docs/server.md, "Sign-ups at
 * once on MariaDB"; test/backtests-at-once.test.ts: 4 to 10 of 36 first backtests, 12 at once).
 * The count below is a consistent read of the snapshot the transaction takes at its first read,
 * after the guarded UPDATE holds the user's row: it sees every earlier charge of this user
 * (they held that row until their commit). A folder taken meanwhile is still the unique index's
 * refusal (ER_DUP_ENTRY), which the caller retries. Everything else is as in 0006.
 */
const STR = 'CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci';

const CHARGE = `CREATE PROCEDURE bt_charge_backtest(
  IN p_user INT, IN p_cost INT, IN p_now DATETIME(3), IN p_meta TEXT ${STR},
  IN p_run_id VARCHAR(36) ${STR}, IN p_base VARCHAR(200) ${STR}, IN p_source VARCHAR(16) ${STR}, IN p_official TINYINT,
  IN p_strategy VARCHAR(120) ${STR}, IN p_strategy_label VARCHAR(200) ${STR}, IN p_user_strategy_id VARCHAR(40) ${STR},
  IN p_symbol VARCHAR(32) ${STR}, IN p_timeframe VARCHAR(8) ${STR}, IN p_start_date VARCHAR(10) ${STR}, IN p_end_date VARCHAR(10) ${STR},
  IN p_sl_mode VARCHAR(16) ${STR}, IN p_sl_pips DOUBLE, IN p_tp1_pips DOUBLE, IN p_tp2_pips DOUBLE, IN p_params TEXT ${STR},
  IN p_created_at DATETIME(3))
BEGIN
  DECLARE v_credits INT;
  DECLARE v_seq INT;
  DECLARE v_taken INT;
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
    -- A SELECT ... INTO, not IF EXISTS (SELECT ...): the latter locks the gap (see above).
    SELECT COUNT(*) INTO v_taken FROM backtest_runs WHERE user_id = p_user AND folder = p_base;
    IF v_taken > 0 THEN
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
END`;

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  if (qi.sequelize.getDialect() !== 'mysql') return;
  await qi.sequelize.query('DROP PROCEDURE IF EXISTS bt_charge_backtest');
  await qi.sequelize.query(CHARGE);
}

/** Both procedures as 0006 created them. */
export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await m0006.up({ context: qi });
}
