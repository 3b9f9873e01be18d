import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** Models of the admin console (migration 0005): the event log, settings, the dataset journal. */

export type EventKind =
  | 'signup'
  | 'login'
  | 'active'
  | 'backtest'
  | 'purchase'
  | 'failed_payment'
  | 'refund'
  | 'credits_offered'
  | 'credits_spent'
  | 'deletion'
  | 'unsubscription';

export class AppEvent extends Model<InferAttributes<AppEvent>, InferCreationAttributes<AppEvent>> {
  declare id: CreationOptional<number>;
  declare kind: EventKind;
  declare userId: number | null;
  declare occurredAt: Date;
  /** YYYY-MM-DD (UTC). */
  declare day: string;
  /** 0..23 (UTC). */
  declare hour: number;
  /** 0 = Monday .. 6 = Sunday (UTC). */
  declare weekday: number;
  declare amountCents: number | null;
  declare credits: number | null;
  declare method: string | null;
  declare category: string | null;
  declare label: string | null;
  declare symbol: string | null;
  declare timeframe: string | null;
  declare strategy: string | null;
  declare durationMs: number | null;
  declare reference: string | null;
  declare meta: string | null;
}

export class AdminSetting extends Model<InferAttributes<AdminSetting>, InferCreationAttributes<AdminSetting>> {
  declare name: string;
  declare value: string | null;
  declare updatedAt: CreationOptional<Date>;
}

export class DatasetJournalEntry extends Model<InferAttributes<DatasetJournalEntry>, InferCreationAttributes<DatasetJournalEntry>> {
  declare id: CreationOptional<number>;
  declare path: string;
  declare createdAt: Date;
}

/** A removal of files the storage still owes (migration 0010, src/storage/removals.ts). */
export class StorageRemoval extends Model<InferAttributes<StorageRemoval>, InferCreationAttributes<StorageRemoval>> {
  declare id: CreationOptional<number>;
  declare path: string;
  declare attempts: number;
  declare lastError: string | null;
  declare nextAt: Date;
  declare createdAt: Date;
}

/** A lease on library maintenance across server processes (migration 0012, src/datasets/lease.ts). */
export class MaintenanceLease extends Model<InferAttributes<MaintenanceLease>, InferCreationAttributes<MaintenanceLease>> {
  declare name: string;
  declare holder: string | null;
  declare expiresAt: Date;
}

export interface AdminModels {
  AppEvent: typeof AppEvent;
  AdminSetting: typeof AdminSetting;
  DatasetJournalEntry: typeof DatasetJournalEntry;
  StorageRemoval: typeof StorageRemoval;
  MaintenanceLease: typeof MaintenanceLease;
}

const str = (length: number, allowNull = true) => ({ type: DataTypes.STRING(length), allowNull });
const int = (allowNull = true) => ({ type: DataTypes.INTEGER, allowNull });

/** Binds the admin models to one Sequelize instance (subclassed per instance, as models.ts does). */
export function initAdminModels(sequelize: Sequelize): AdminModels {
  const E = class extends AppEvent {};
  E.init(
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      kind: str(24, false),
      userId: int(),
      occurredAt: { type: DataTypes.DATE(3), allowNull: false },
      day: str(10, false),
      hour: int(false),
      weekday: int(false),
      amountCents: int(),
      credits: int(),
      method: str(32),
      category: str(32),
      label: str(200),
      symbol: str(32),
      timeframe: str(8),
      strategy: str(120),
      durationMs: int(),
      reference: str(191),
      meta: { type: DataTypes.TEXT, allowNull: true },
    },
    { sequelize, tableName: 'events', modelName: 'AppEvent', underscored: true, timestamps: false },
  );
  const S = class extends AdminSetting {};
  S.init(
    {
      name: { type: DataTypes.STRING(64), primaryKey: true },
      value: { type: DataTypes.TEXT, allowNull: true },
      updatedAt: DataTypes.DATE,
    },
    { sequelize, tableName: 'admin_settings', modelName: 'AdminSetting', underscored: true, createdAt: false, updatedAt: 'updated_at' },
  );
  const J = class extends DatasetJournalEntry {};
  J.init(
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      path: str(255, false),
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    { sequelize, tableName: 'dataset_journal', modelName: 'DatasetJournalEntry', underscored: true, createdAt: false, updatedAt: false },
  );
  const R = class extends StorageRemoval {};
  R.init(
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      path: str(255, false),
      attempts: int(false),
      lastError: str(500),
      nextAt: { type: DataTypes.DATE, allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    { sequelize, tableName: 'storage_removals', modelName: 'StorageRemoval', underscored: true, createdAt: false, updatedAt: false },
  );
  const L = class extends MaintenanceLease {};
  L.init(
    {
      name: { type: DataTypes.STRING(64), primaryKey: true },
      holder: str(64),
      expiresAt: { type: DataTypes.DATE, allowNull: false },
    },
    { sequelize, tableName: 'maintenance_leases', modelName: 'MaintenanceLease', underscored: true, createdAt: false, updatedAt: false },
  );
  return { AppEvent: E, AdminSetting: S, DatasetJournalEntry: J, StorageRemoval: R, MaintenanceLease: L };
}
