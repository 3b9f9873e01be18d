import {
  DataTypes,
  Model,
  type CreationOptional,
  type ForeignKey,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { initAdminModels, type AdminModels } from './models-admin.js';
import { initPaymentModels, type PaymentModels } from './models-payments.js';
import { initWorkModels, type WorkModels } from './models-work.js';

export * from './models-admin.js';
export * from './models-payments.js';
export * from './models-work.js';

/**
 * Models mirror the tables the migrations create (db/migrations); they never create tables
 * themselves (no sync() outside tests).
 */
export class User extends Model<InferAttributes<User>, InferCreationAttributes<User>> {
  declare id: CreationOptional<number>;
  declare username: string | null;
  declare email: string | null;
  declare deletedEmail: CreationOptional<string | null>;
  declare firstName: string;
  declare lastName: string;
  declare passwordHash: string | null;
  declare role: CreationOptional<'user' | 'admin'>;
  declare plan: CreationOptional<string>;
  declare credits: CreationOptional<number>;
  declare emailVerified: CreationOptional<boolean>;
  declare emailVerifiedAt: CreationOptional<Date | null>;
  declare subscriptionRenewDate: CreationOptional<Date | null>;
  declare subscriptionAutoRenew: CreationOptional<boolean>;
  declare deletedAt: CreationOptional<Date | null>;
  /** When the sweep erased the deleted account's personal fields, 12 months after deletion (users/erasure.ts). */
  declare erasedAt: CreationOptional<Date | null>;
  /** Backtests started so far (run_seq of the Config sheet, folder uniqueness suffix). */
  declare runSeq: CreationOptional<number>;
  /** Where the subscription is paid (stripe renews by itself; paypal and crypto pay one period). */
  declare subscriptionProvider: CreationOptional<string | null>;
  /** The provider's subscription id (Stripe), to stop its renewal. */
  declare subscriptionId: CreationOptional<string | null>;
  /** Pro's backtest priority, for the job queue; in force only while the plan is (users/presenter.ts). */
  declare backtestPriority: CreationOptional<boolean>;
  /** The last request made with one of the user's keys, written at most every few minutes. */
  declare lastSeenAt: CreationOptional<Date | null>;
  /** The warning of the current period of inactivity, 30 days before the archiving (users/inactivity.ts). */
  declare inactivityWarnedAt: CreationOptional<Date | null>;
  /** When that warning's e-mail went (null: not mailed, no mailer or no address). */
  declare inactivityMailedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class ApiKey extends Model<InferAttributes<ApiKey>, InferCreationAttributes<ApiKey>> {
  declare id: CreationOptional<number>;
  declare userId: ForeignKey<User['id']>;
  declare keyHash: string;
  /** Last request made with the key, refreshed at most hourly (null: not used since issued). */
  declare lastUsedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
}

export type UserTokenPurpose = 'verify_email' | 'reset_password';
/** How a token reached its user: by e-mail, or shown on screen because no mail transport is configured. */
export type TokenDelivery = 'mail' | 'screen';

export class UserToken extends Model<InferAttributes<UserToken>, InferCreationAttributes<UserToken>> {
  declare id: CreationOptional<number>;
  declare userId: ForeignKey<User['id']>;
  declare purpose: UserTokenPurpose;
  declare tokenHash: string;
  declare expiresAt: Date;
  declare usedAt: CreationOptional<Date | null>;
  declare delivery: CreationOptional<TokenDelivery | null>;
  declare createdAt: CreationOptional<Date>;
}

export class UserIdentity extends Model<InferAttributes<UserIdentity>, InferCreationAttributes<UserIdentity>> {
  declare id: CreationOptional<number>;
  declare userId: ForeignKey<User['id']>;
  declare provider: string;
  declare subject: string;
  declare email: string | null;
  declare createdAt: CreationOptional<Date>;
}

export type LedgerKind = 'grant' | 'spend' | 'refund';

export class CreditEntry extends Model<InferAttributes<CreditEntry>, InferCreationAttributes<CreditEntry>> {
  declare id: CreationOptional<number>;
  declare userId: ForeignKey<User['id']>;
  declare kind: LedgerKind;
  declare reason: string;
  /** Signed change of the balance. */
  declare amount: number;
  declare balanceAfter: number;
  declare reference: string | null;
  declare meta: string | null;
  declare createdAt: CreationOptional<Date>;
}

export class EmailRecreation extends Model<InferAttributes<EmailRecreation>, InferCreationAttributes<EmailRecreation>> {
  declare email: string;
  declare deletions: number;
  declare recreations: number;
  declare updatedAt: CreationOptional<Date>;
}

export class SupportMessage extends Model<InferAttributes<SupportMessage>, InferCreationAttributes<SupportMessage>> {
  declare id: CreationOptional<number>;
  declare type: 'contact' | 'feedback';
  declare firstName: string;
  declare lastName: string;
  declare email: string;
  declare message: string;
  declare meta: string | null;
  declare userId: number | null;
  declare emailed: boolean;
  declare createdAt: CreationOptional<Date>;
}

export class OidcState extends Model<InferAttributes<OidcState>, InferCreationAttributes<OidcState>> {
  declare id: CreationOptional<number>;
  declare stateHash: string;
  declare bindingHash: string;
  declare provider: string;
  declare nonce: string;
  declare codeVerifier: string;
  declare nextPath: string | null;
  declare expiresAt: Date;
  declare createdAt: CreationOptional<Date>;
}

/** A Google sign-in's one-time code (migration 0020, oidc/codes.ts): redeemed once for a session key. */
export class OidcCode extends Model<InferAttributes<OidcCode>, InferCreationAttributes<OidcCode>> {
  declare id: CreationOptional<number>;
  declare codeHash: string;
  declare bindingHash: string;
  declare provider: string;
  declare userId: number;
  declare nextPath: string | null;
  declare expiresAt: Date;
  declare createdAt: CreationOptional<Date>;
}

export interface Models extends WorkModels, PaymentModels, AdminModels {
  User: typeof User;
  ApiKey: typeof ApiKey;
  UserToken: typeof UserToken;
  UserIdentity: typeof UserIdentity;
  CreditEntry: typeof CreditEntry;
  EmailRecreation: typeof EmailRecreation;
  SupportMessage: typeof SupportMessage;
  OidcState: typeof OidcState;
  OidcCode: typeof OidcCode;
}

const id = { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true };
const created = { createdAt: 'created_at', updatedAt: false as const, underscored: true };

/** Binds the model classes to one Sequelize instance (one per database). */
export function initModels(sequelize: Sequelize): Models {
  // Model classes are module singletons: binding them to a second Sequelize instance (tests open
  // several databases in one process) would rebind the first. Subclass per instance instead.
  const U = class extends User {};
  U.init(
    {
      id,
      username: { type: DataTypes.STRING(64), allowNull: true },
      email: { type: DataTypes.STRING(191), allowNull: true },
      deletedEmail: { type: DataTypes.STRING(191), allowNull: true },
      firstName: { type: DataTypes.STRING(100), allowNull: false },
      lastName: { type: DataTypes.STRING(100), allowNull: false },
      passwordHash: { type: DataTypes.STRING(255), allowNull: true },
      role: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'user' },
      plan: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'free' },
      credits: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      emailVerified: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      emailVerifiedAt: { type: DataTypes.DATE, allowNull: true },
      subscriptionRenewDate: { type: DataTypes.DATE, allowNull: true },
      subscriptionAutoRenew: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      deletedAt: { type: DataTypes.DATE, allowNull: true },
      erasedAt: { type: DataTypes.DATE, allowNull: true },
      runSeq: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      subscriptionProvider: { type: DataTypes.STRING(16), allowNull: true },
      subscriptionId: { type: DataTypes.STRING(191), allowNull: true },
      backtestPriority: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      lastSeenAt: { type: DataTypes.DATE, allowNull: true },
      inactivityWarnedAt: { type: DataTypes.DATE, allowNull: true },
      inactivityMailedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { sequelize, tableName: 'users', modelName: 'User', underscored: true },
  );
  const K = class extends ApiKey {};
  K.init(
    {
      id,
      userId: { type: DataTypes.INTEGER, allowNull: false },
      keyHash: { type: DataTypes.STRING(64), allowNull: false },
      lastUsedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: DataTypes.DATE,
    },
    { sequelize, tableName: 'api_keys', modelName: 'ApiKey', ...created },
  );
  const T = class extends UserToken {};
  T.init(
    {
      id,
      userId: { type: DataTypes.INTEGER, allowNull: false },
      purpose: { type: DataTypes.STRING(32), allowNull: false },
      tokenHash: { type: DataTypes.STRING(64), allowNull: false },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      usedAt: { type: DataTypes.DATE, allowNull: true },
      delivery: { type: DataTypes.STRING(8), allowNull: true },
      createdAt: DataTypes.DATE,
    },
    { sequelize, tableName: 'user_tokens', modelName: 'UserToken', ...created },
  );
  const I = class extends UserIdentity {};
  I.init(
    {
      id,
      userId: { type: DataTypes.INTEGER, allowNull: false },
      provider: { type: DataTypes.STRING(32), allowNull: false },
      subject: { type: DataTypes.STRING(191), allowNull: false },
      email: { type: DataTypes.STRING(191), allowNull: true },
      createdAt: DataTypes.DATE,
    },
    { sequelize, tableName: 'user_identities', modelName: 'UserIdentity', ...created },
  );
  const C = class extends CreditEntry {};
  C.init(
    {
      id,
      userId: { type: DataTypes.INTEGER, allowNull: false },
      kind: { type: DataTypes.STRING(16), allowNull: false },
      reason: { type: DataTypes.STRING(32), allowNull: false },
      amount: { type: DataTypes.INTEGER, allowNull: false },
      balanceAfter: { type: DataTypes.INTEGER, allowNull: false },
      reference: { type: DataTypes.STRING(191), allowNull: true },
      meta: { type: DataTypes.TEXT, allowNull: true },
      createdAt: DataTypes.DATE,
    },
    { sequelize, tableName: 'credit_ledger', modelName: 'CreditEntry', ...created },
  );
  const E = class extends EmailRecreation {};
  E.init(
    {
      email: { type: DataTypes.STRING(191), primaryKey: true },
      deletions: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      recreations: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      updatedAt: DataTypes.DATE,
    },
    { sequelize, tableName: 'email_recreations', modelName: 'EmailRecreation', createdAt: false, updatedAt: 'updated_at', underscored: true },
  );
  const S = class extends SupportMessage {};
  S.init(
    {
      id,
      type: { type: DataTypes.STRING(16), allowNull: false },
      firstName: { type: DataTypes.STRING(100), allowNull: false },
      lastName: { type: DataTypes.STRING(100), allowNull: false },
      email: { type: DataTypes.STRING(191), allowNull: false },
      message: { type: DataTypes.TEXT, allowNull: false },
      meta: { type: DataTypes.TEXT, allowNull: true },
      userId: { type: DataTypes.INTEGER, allowNull: true },
      emailed: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      createdAt: DataTypes.DATE,
    },
    { sequelize, tableName: 'support_messages', modelName: 'SupportMessage', ...created },
  );
  const O = class extends OidcState {};
  O.init(
    {
      id,
      stateHash: { type: DataTypes.STRING(64), allowNull: false },
      bindingHash: { type: DataTypes.STRING(64), allowNull: false },
      provider: { type: DataTypes.STRING(32), allowNull: false },
      nonce: { type: DataTypes.STRING(128), allowNull: false },
      codeVerifier: { type: DataTypes.STRING(128), allowNull: false },
      nextPath: { type: DataTypes.STRING(512), allowNull: true },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      createdAt: DataTypes.DATE,
    },
    { sequelize, tableName: 'oidc_states', modelName: 'OidcState', ...created },
  );
  const OC = class extends OidcCode {};
  OC.init(
    {
      id,
      codeHash: { type: DataTypes.STRING(64), allowNull: false },
      bindingHash: { type: DataTypes.STRING(64), allowNull: false },
      provider: { type: DataTypes.STRING(32), allowNull: false },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      nextPath: { type: DataTypes.STRING(512), allowNull: true },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      createdAt: DataTypes.DATE,
    },
    { sequelize, tableName: 'oidc_codes', modelName: 'OidcCode', ...created },
  );
  return { User: U, ApiKey: K, UserToken: T, UserIdentity: I, CreditEntry: C, EmailRecreation: E, SupportMessage: S, OidcState: O, OidcCode: OC, ...initWorkModels(sequelize), ...initPaymentModels(sequelize), ...initAdminModels(sequelize) };
}
