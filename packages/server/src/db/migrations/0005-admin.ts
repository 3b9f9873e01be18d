import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * The admin console (docs/admin.md): the event log its statistics are computed from, the
 * console's own markers (the history reset), the journal that keeps the dataset index consistent
 * when an import is interrupted, and each user's last request (active users).
 */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  const text = (length: number, allowNull = true) => ({ type: DataTypes.STRING(length), allowNull });
  const int = (allowNull = true) => ({ type: DataTypes.INTEGER, allowNull });

  await qi.addColumn('users', 'last_seen_at', { type: DataTypes.DATE, allowNull: true });

  await qi.createTable('events', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
    kind: text(24, false),
    // No foreign key: the log outlives what it describes, and a reset or rebuild never waits on users.
    user_id: int(),
    // Milliseconds kept (MySQL's DATETIME drops them, and MySQL rounds: 23:59:59.6 would change day).
    occurred_at: { type: DataTypes.DATE(3), allowNull: false },
    // The UTC calendar day, hour and weekday (0 = Monday) of occurred_at, stored so that every
    // breakdown is a plain GROUP BY in both dialects (no date functions, no time zones in SQL).
    day: text(10, false),
    hour: int(false),
    weekday: int(false),
    amount_cents: int(),
    // Signed: credits in (bought, offered) are positive, credits out (spent, removed) negative.
    credits: int(),
    method: text(32),
    // A sub-kind where one is counted on its own (the failure kind of a failed payment).
    category: text(32),
    label: text(200),
    symbol: text(32),
    timeframe: text(8),
    strategy: text(120),
    duration_ms: int(),
    // What the event is about (a run id, a payment, a ledger row): recorded once per kind.
    reference: text(191),
    meta: { type: DataTypes.TEXT, allowNull: true },
  });
  await qi.addIndex('events', ['kind', 'reference'], { unique: true, name: 'events_kind_reference_unique' });
  await qi.addIndex('events', ['kind', 'occurred_at'], { name: 'events_kind_time' });
  await qi.addIndex('events', ['occurred_at'], { name: 'events_time' });
  await qi.addIndex('events', ['user_id', 'kind'], { name: 'events_user_kind' });

  await qi.createTable('admin_settings', {
    name: { type: DataTypes.STRING(64), primaryKey: true, allowNull: false },
    value: { type: DataTypes.TEXT, allowNull: true },
    updated_at: { type: DataTypes.DATE, allowNull: false },
  });

  // A library path an import is about to replace: written before the files move, removed once
  // the index row matches them. Rows left by a killed import are re-indexed at the next start.
  await qi.createTable('dataset_journal', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
    path: text(255, false),
    created_at: { type: DataTypes.DATE, allowNull: false },
  });
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('dataset_journal');
  await qi.dropTable('admin_settings');
  await qi.dropTable('events');
  await qi.removeColumn('users', 'last_seen_at');
}
