import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * The working area (docs/product.md part 2): the official dataset index, backtest runs and their results, the
 * users' CSV purchases and extractions, personal strategies and the strategy archive.
 */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  const id = { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false };
  const date = (allowNull = false) => ({ type: DataTypes.DATE, allowNull });
  const text = (length: number, allowNull = false) => ({ type: DataTypes.STRING(length), allowNull });
  const userRef = (onDelete: 'CASCADE' | 'RESTRICT' | 'SET NULL', allowNull = false) => ({
    type: DataTypes.INTEGER,
    allowNull,
    references: { model: 'users', key: 'id' },
    onDelete,
    onUpdate: 'CASCADE',
  });

  // Per-user run counter: run_seq of the Config sheet and the uniqueness suffix of result folders.
  await qi.addColumn('users', 'run_seq', { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 });

  await qi.createTable('datasets', {
    id,
    symbol: text(32),
    timeframe: text(8),
    month: text(7),
    path: text(255),
    ipc_path: text(255),
    rows: { type: DataTypes.INTEGER, allowNull: false },
    first_candle: date(),
    last_candle: date(),
    checksum: text(64),
    bytes: { type: DataTypes.INTEGER, allowNull: false },
    source: text(255, true),
    created_at: date(),
    updated_at: date(),
  });
  await qi.addIndex('datasets', ['symbol', 'timeframe', 'month'], { unique: true, name: 'datasets_series_month_unique' });
  await qi.addIndex('datasets', ['path'], { unique: true, name: 'datasets_path_unique' });

  await qi.createTable('backtest_runs', {
    id,
    run_id: text(36),
    user_id: userRef('RESTRICT'),
    run_seq: { type: DataTypes.INTEGER, allowNull: false },
    folder: text(200),
    status: text(16),
    source: text(16),
    official: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    strategy: text(120),
    strategy_label: text(200),
    user_strategy_id: text(40, true),
    symbol: text(32),
    timeframe: text(8),
    start_date: text(10),
    end_date: text(10),
    sl_mode: text(16),
    sl_pips: { type: DataTypes.DOUBLE, allowNull: true },
    tp1_pips: { type: DataTypes.DOUBLE, allowNull: true },
    tp2_pips: { type: DataTypes.DOUBLE, allowNull: true },
    params: { type: DataTypes.TEXT, allowNull: true },
    trades: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    resolved: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    winrate_tp1: { type: DataTypes.DOUBLE, allowNull: true },
    winrate_tp2: { type: DataTypes.DOUBLE, allowNull: true },
    summary: { type: DataTypes.TEXT, allowNull: true },
    xlsx_path: text(255, true),
    duration_ms: { type: DataTypes.INTEGER, allowNull: true },
    error: { type: DataTypes.TEXT, allowNull: true },
    created_at: date(),
    updated_at: date(),
  });
  await qi.addIndex('backtest_runs', ['run_id'], { unique: true, name: 'backtest_runs_run_unique' });
  await qi.addIndex('backtest_runs', ['user_id', 'folder'], { unique: true, name: 'backtest_runs_user_folder_unique' });
  await qi.addIndex('backtest_runs', ['official', 'status', 'resolved'], { name: 'backtest_runs_public' });

  await qi.createTable('user_csvs', {
    id,
    user_id: userRef('CASCADE'),
    kind: text(16),
    path: text(255),
    storage_path: text(255),
    symbol: text(32),
    timeframe: text(8),
    start_date: text(10),
    end_date: text(10),
    rows: { type: DataTypes.INTEGER, allowNull: false },
    bytes: { type: DataTypes.INTEGER, allowNull: false },
    dataset_id: { type: DataTypes.INTEGER, allowNull: true },
    created_at: date(),
    updated_at: date(),
  });
  await qi.addIndex('user_csvs', ['user_id', 'kind', 'path'], { unique: true, name: 'user_csvs_owner_path_unique' });

  await qi.createTable('user_strategies', {
    id: { type: DataTypes.STRING(40), primaryKey: true, allowNull: false },
    user_id: userRef('CASCADE'),
    detect_name: text(100),
    strategy_key: text(120),
    display_name: text(120),
    display_filename: text(160),
    source: text(16),
    sl_mode: text(16),
    entry_mode: text(16),
    filters: { type: DataTypes.TEXT, allowNull: true },
    params: { type: DataTypes.TEXT, allowNull: true },
    ui: { type: DataTypes.TEXT, allowNull: true },
    description: { type: DataTypes.TEXT, allowNull: true },
    comment: { type: DataTypes.TEXT, allowNull: true },
    comment_user: { type: DataTypes.TEXT, allowNull: true },
    user_input: { type: DataTypes.TEXT, allowNull: true },
    path: text(255),
    checksum: text(64),
    bytes: { type: DataTypes.INTEGER, allowNull: false },
    created_at: date(),
    updated_at: date(),
  });
  await qi.addIndex('user_strategies', ['user_id'], { name: 'user_strategies_user' });

  await qi.createTable('strategy_archive', {
    id,
    type: text(16),
    strategy_id: text(40, true),
    user_id: userRef('SET NULL', true),
    display_name: text(120, true),
    sl_mode: text(16, true),
    status: text(16),
    path: text(255, true),
    meta: { type: DataTypes.TEXT, allowNull: true },
    note: { type: DataTypes.TEXT, allowNull: true },
    created_at: date(),
    deleted_at: date(true),
  });
  await qi.addIndex('strategy_archive', ['type', 'id'], { name: 'strategy_archive_type' });
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  for (const table of ['strategy_archive', 'user_strategies', 'user_csvs', 'backtest_runs', 'datasets']) await qi.dropTable(table);
  await qi.removeColumn('users', 'run_seq');
}
