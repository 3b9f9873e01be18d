import { DataTypes, type QueryInterface } from 'sequelize';

/** Accounts, session keys, one-time tokens, third-party identities, the credit ledger, support. */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  const id = { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false };
  const createdAt = { type: DataTypes.DATE, allowNull: false };
  const userRef = (onDelete: 'CASCADE' | 'RESTRICT' | 'SET NULL', allowNull = false) => ({
    type: DataTypes.INTEGER,
    allowNull,
    references: { model: 'users', key: 'id' },
    onDelete,
    onUpdate: 'CASCADE',
  });

  await qi.createTable('users', {
    id,
    username: { type: DataTypes.STRING(64), allowNull: true },
    email: { type: DataTypes.STRING(191), allowNull: true },
    deleted_email: { type: DataTypes.STRING(191), allowNull: true },
    first_name: { type: DataTypes.STRING(100), allowNull: false },
    last_name: { type: DataTypes.STRING(100), allowNull: false },
    password_hash: { type: DataTypes.STRING(255), allowNull: true },
    role: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'user' },
    plan: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'free' },
    credits: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    email_verified: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    email_verified_at: { type: DataTypes.DATE, allowNull: true },
    subscription_renew_date: { type: DataTypes.DATE, allowNull: true },
    subscription_auto_renew: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    deleted_at: { type: DataTypes.DATE, allowNull: true },
    created_at: createdAt,
    updated_at: createdAt,
  });
  // Deleted accounts keep their row (archive, ledger) with email and username set to NULL, so
  // the unique indexes free the address for a re-creation.
  await qi.addIndex('users', ['email'], { unique: true, name: 'users_email_unique' });
  await qi.addIndex('users', ['username'], { unique: true, name: 'users_username_unique' });

  await qi.createTable('api_keys', {
    id,
    user_id: userRef('CASCADE'),
    key_hash: { type: DataTypes.STRING(64), allowNull: false },
    created_at: createdAt,
  });
  await qi.addIndex('api_keys', ['key_hash'], { unique: true, name: 'api_keys_hash_unique' });
  await qi.addIndex('api_keys', ['user_id'], { name: 'api_keys_user' });

  await qi.createTable('user_tokens', {
    id,
    user_id: userRef('CASCADE'),
    purpose: { type: DataTypes.STRING(32), allowNull: false },
    token_hash: { type: DataTypes.STRING(64), allowNull: false },
    expires_at: { type: DataTypes.DATE, allowNull: false },
    used_at: { type: DataTypes.DATE, allowNull: true },
    created_at: createdAt,
  });
  await qi.addIndex('user_tokens', ['token_hash'], { unique: true, name: 'user_tokens_hash_unique' });
  await qi.addIndex('user_tokens', ['user_id', 'purpose'], { name: 'user_tokens_user_purpose' });

  await qi.createTable('user_identities', {
    id,
    user_id: userRef('CASCADE'),
    provider: { type: DataTypes.STRING(32), allowNull: false },
    subject: { type: DataTypes.STRING(191), allowNull: false },
    email: { type: DataTypes.STRING(191), allowNull: true },
    created_at: createdAt,
  });
  await qi.addIndex('user_identities', ['provider', 'subject'], { unique: true, name: 'user_identities_subject_unique' });
  await qi.addIndex('user_identities', ['user_id'], { name: 'user_identities_user' });

  await qi.createTable('credit_ledger', {
    id,
    user_id: userRef('RESTRICT'),
    kind: { type: DataTypes.STRING(16), allowNull: false },
    reason: { type: DataTypes.STRING(32), allowNull: false },
    amount: { type: DataTypes.INTEGER, allowNull: false },
    balance_after: { type: DataTypes.INTEGER, allowNull: false },
    reference: { type: DataTypes.STRING(191), allowNull: true },
    meta: { type: DataTypes.TEXT, allowNull: true },
    created_at: createdAt,
  });
  // An external reference (payment id, run id) is used once per kind: a payment credits once,
  // a run is charged once and refunded once. NULL references do not collide.
  await qi.addIndex('credit_ledger', ['kind', 'reference'], { unique: true, name: 'credit_ledger_reference_unique' });
  await qi.addIndex('credit_ledger', ['user_id', 'id'], { name: 'credit_ledger_user' });

  await qi.createTable('email_recreations', {
    email: { type: DataTypes.STRING(191), primaryKey: true, allowNull: false },
    deletions: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    recreations: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    updated_at: createdAt,
  });

  await qi.createTable('support_messages', {
    id,
    type: { type: DataTypes.STRING(16), allowNull: false },
    first_name: { type: DataTypes.STRING(100), allowNull: false },
    last_name: { type: DataTypes.STRING(100), allowNull: false },
    email: { type: DataTypes.STRING(191), allowNull: false },
    message: { type: DataTypes.TEXT, allowNull: false },
    meta: { type: DataTypes.TEXT, allowNull: true },
    user_id: userRef('SET NULL', true),
    emailed: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    created_at: createdAt,
  });

  await qi.createTable('oidc_states', {
    id,
    state_hash: { type: DataTypes.STRING(64), allowNull: false },
    binding_hash: { type: DataTypes.STRING(64), allowNull: false },
    provider: { type: DataTypes.STRING(32), allowNull: false },
    nonce: { type: DataTypes.STRING(128), allowNull: false },
    code_verifier: { type: DataTypes.STRING(128), allowNull: false },
    next_path: { type: DataTypes.STRING(512), allowNull: true },
    expires_at: { type: DataTypes.DATE, allowNull: false },
    created_at: createdAt,
  });
  await qi.addIndex('oidc_states', ['state_hash'], { unique: true, name: 'oidc_states_hash_unique' });
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  for (const table of ['oidc_states', 'support_messages', 'email_recreations', 'credit_ledger', 'user_identities', 'user_tokens', 'api_keys', 'users']) {
    await qi.dropTable(table);
  }
}
