import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** Models of the working area (migration 0002): datasets, runs, CSV ownership, strategies, archive. */

/** One month of one official series: a CSV in the library and its Arrow IPC copy. */
export class Dataset extends Model<InferAttributes<Dataset>, InferCreationAttributes<Dataset>> {
  declare id: CreationOptional<number>;
  declare symbol: string;
  declare timeframe: string;
  /** YYYY-MM (UTC). */
  declare month: string;
  /** Relative to the library root: `EURUSD/H1/EURUSD_H1_2017-05.csv`. */
  declare path: string;
  declare ipcPath: string;
  declare rows: number;
  declare firstCandle: Date;
  declare lastCandle: Date;
  /** SHA-256 of the CSV bytes. */
  declare checksum: string;
  declare bytes: number;
  declare source: string | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export type RunStatus = 'running' | 'done' | 'failed';
export type RunSource = 'official' | 'custom';

export class BacktestRun extends Model<InferAttributes<BacktestRun>, InferCreationAttributes<BacktestRun>> {
  declare id: CreationOptional<number>;
  /** Also the credit ledger reference of the run's charge. */
  declare runId: string;
  declare userId: number;
  declare runSeq: number;
  declare folder: string;
  declare status: RunStatus;
  /** Where the candles came from: the official store or an uploaded file. */
  declare source: RunSource;
  /** An official strategy on official data: eligible for the public top strategies. */
  declare official: boolean;
  declare strategy: string;
  declare strategyLabel: string;
  declare userStrategyId: string | null;
  declare symbol: string;
  declare timeframe: string;
  declare startDate: string;
  declare endDate: string;
  declare slMode: string;
  declare slPips: number | null;
  declare tp1Pips: number | null;
  declare tp2Pips: number | null;
  declare params: string | null;
  declare trades: CreationOptional<number>;
  declare resolved: CreationOptional<number>;
  declare winrateTp1: CreationOptional<number | null>;
  declare winrateTp2: CreationOptional<number | null>;
  /** JSON: the grouped figures the comparator reads (results/summary.ts). */
  declare summary: CreationOptional<string | null>;
  /** Relative to the file storage: `results/{user}/{folder}/{folder}.xlsx`. */
  declare xlsxPath: CreationOptional<string | null>;
  declare durationMs: CreationOptional<number | null>;
  declare error: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export type UserCsvKind = 'library' | 'extraction';

/** A CSV a user owns: a library month they bought, or a range they extracted. */
export class UserCsv extends Model<InferAttributes<UserCsv>, InferCreationAttributes<UserCsv>> {
  declare id: CreationOptional<number>;
  declare userId: number;
  declare kind: UserCsvKind;
  /** What the API calls the file: the library path, or `live/{file}` for an extraction. */
  declare path: string;
  /** Where it is: library root for purchases, file storage for extractions. */
  declare storagePath: string;
  declare symbol: string;
  declare timeframe: string;
  declare startDate: string;
  declare endDate: string;
  declare rows: number;
  declare bytes: number;
  declare datasetId: number | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export type StrategySource = 'import' | 'gpt';

export class UserStrategy extends Model<InferAttributes<UserStrategy>, InferCreationAttributes<UserStrategy>> {
  declare id: string;
  declare userId: number;
  /** The Python function: `detect_<id>`. */
  declare detectName: string;
  /** Folder-safe key used in result folders. */
  declare strategyKey: string;
  declare displayName: string;
  declare displayFilename: string;
  declare source: StrategySource;
  declare slMode: 'internal' | 'external';
  declare entryMode: 'signal' | 'pullback';
  /** JSON arrays/objects. */
  declare filters: string | null;
  declare params: string | null;
  declare ui: string | null;
  declare description: string | null;
  declare comment: string | null;
  declare commentUser: string | null;
  declare userInput: string | null;
  declare path: string;
  declare checksum: string;
  declare bytes: number;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class ArchivedStrategy extends Model<InferAttributes<ArchivedStrategy>, InferCreationAttributes<ArchivedStrategy>> {
  declare id: CreationOptional<number>;
  declare type: StrategySource;
  declare strategyId: string | null;
  declare userId: number | null;
  declare displayName: string | null;
  declare slMode: string | null;
  declare status: 'ok' | 'failed';
  declare path: string | null;
  declare meta: string | null;
  declare note: string | null;
  declare createdAt: CreationOptional<Date>;
  declare deletedAt: CreationOptional<Date | null>;
}

export interface WorkModels {
  Dataset: typeof Dataset;
  BacktestRun: typeof BacktestRun;
  UserCsv: typeof UserCsv;
  UserStrategy: typeof UserStrategy;
  ArchivedStrategy: typeof ArchivedStrategy;
}

const id = () => ({ type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true });
const str = (length: number, allowNull = false) => ({ type: DataTypes.STRING(length), allowNull });
// Factories, not shared objects: Sequelize writes the field name into each attribute definition.
const txt = () => ({ type: DataTypes.TEXT, allowNull: true });
const int = (allowNull = false) => ({ type: DataTypes.INTEGER, allowNull });
const dbl = () => ({ type: DataTypes.DOUBLE, allowNull: true });
const timestamps = { underscored: true, createdAt: 'created_at', updatedAt: 'updated_at' } as const;
/**
 * Rows whose times the service writes from the app's clock (src/clock): no Sequelize timestamps.
 * With `createdAt: 'created_at'` Sequelize adds a timestamp attribute `created_at` of its own beside
 * the model's `createdAt` (same column) and fills it with the real time, so the clock's value was
 * dropped; the daily count of imports (strategies/quota.ts) reads these times against the clock.
 */
const clockStamped = { underscored: true, timestamps: false } as const;

/** Binds the working-area models to one Sequelize instance (subclassed per instance, as models.ts does). */
export function initWorkModels(sequelize: Sequelize): WorkModels {
  const D = class extends Dataset {};
  D.init(
    {
      id: id(),
      symbol: str(32),
      timeframe: str(8),
      month: str(7),
      path: str(255),
      ipcPath: str(255),
      rows: int(),
      firstCandle: { type: DataTypes.DATE, allowNull: false },
      lastCandle: { type: DataTypes.DATE, allowNull: false },
      checksum: str(64),
      bytes: int(),
      source: str(255, true),
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { sequelize, tableName: 'datasets', modelName: 'Dataset', ...timestamps },
  );
  const R = class extends BacktestRun {};
  R.init(
    {
      id: id(),
      runId: str(36),
      userId: int(),
      runSeq: int(),
      folder: str(200),
      status: str(16),
      source: str(16),
      official: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      strategy: str(120),
      strategyLabel: str(200),
      userStrategyId: str(40, true),
      symbol: str(32),
      timeframe: str(8),
      startDate: str(10),
      endDate: str(10),
      slMode: str(16),
      slPips: dbl(),
      tp1Pips: dbl(),
      tp2Pips: dbl(),
      params: txt(),
      trades: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      resolved: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      winrateTp1: dbl(),
      winrateTp2: dbl(),
      summary: { type: DataTypes.TEXT, allowNull: true },
      xlsxPath: str(255, true),
      durationMs: int(true),
      error: txt(),
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { sequelize, tableName: 'backtest_runs', modelName: 'BacktestRun', ...timestamps },
  );
  const C = class extends UserCsv {};
  C.init(
    {
      id: id(),
      userId: int(),
      kind: str(16),
      path: str(255),
      storagePath: str(255),
      symbol: str(32),
      timeframe: str(8),
      startDate: str(10),
      endDate: str(10),
      rows: int(),
      bytes: int(),
      datasetId: int(true),
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    // Written by the CSV shop with the app's clock (csvs/service.ts): see clockStamped.
    { sequelize, tableName: 'user_csvs', modelName: 'UserCsv', ...clockStamped },
  );
  const S = class extends UserStrategy {};
  S.init(
    {
      id: { type: DataTypes.STRING(40), primaryKey: true },
      userId: int(),
      detectName: str(100),
      strategyKey: str(120),
      displayName: str(120),
      displayFilename: str(160),
      source: str(16),
      slMode: str(16),
      entryMode: str(16),
      filters: txt(),
      params: txt(),
      ui: txt(),
      description: txt(),
      comment: txt(),
      commentUser: txt(),
      userInput: txt(),
      path: str(255),
      checksum: str(64),
      bytes: int(),
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    // Written by the service with the app's clock (strategies/service.ts), not by Sequelize: see clockStamped.
    { sequelize, tableName: 'user_strategies', modelName: 'UserStrategy', ...clockStamped },
  );
  const A = class extends ArchivedStrategy {};
  A.init(
    {
      id: id(),
      type: str(16),
      strategyId: str(40, true),
      userId: int(true),
      displayName: str(120, true),
      slMode: str(16, true),
      status: str(16),
      path: str(255, true),
      meta: txt(),
      note: txt(),
      createdAt: DataTypes.DATE,
      deletedAt: { type: DataTypes.DATE, allowNull: true },
    },
    { sequelize, tableName: 'strategy_archive', modelName: 'ArchivedStrategy', ...clockStamped },
  );
  return { Dataset: D, BacktestRun: R, UserCsv: C, UserStrategy: S, ArchivedStrategy: A };
}
