import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * The one-time codes a Google sign-in's return carries instead of a session key (docs/security.md
 * "Google sign-in", docs/server.md "Third-party sign-in (OpenID Connect)"): the callback stores
 * the code's SHA-256 with the account it signs into, the page to go back to and the hash of the
 * browser's `bt_oidc` binding; `POST /api/auth/google/redeem` deletes the row and issues the key.
 * A row lives 60 seconds; the minute sweep removes those nobody redeemed.
 */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('oidc_codes', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
    code_hash: { type: DataTypes.STRING(64), allowNull: false },
    binding_hash: { type: DataTypes.STRING(64), allowNull: false },
    provider: { type: DataTypes.STRING(32), allowNull: false },
    user_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'users', key: 'id' }, onDelete: 'CASCADE', onUpdate: 'CASCADE' },
    next_path: { type: DataTypes.STRING(512), allowNull: true },
    expires_at: { type: DataTypes.DATE, allowNull: false },
    created_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('oidc_codes', ['code_hash'], { unique: true, name: 'oidc_codes_hash_unique' });
  await qi.addIndex('oidc_codes', ['expires_at'], { name: 'oidc_codes_expires' });
  await qi.addIndex('oidc_codes', ['user_id'], { name: 'oidc_codes_user' });
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('oidc_codes');
}
