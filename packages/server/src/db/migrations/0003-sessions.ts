import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * Sessions that end (docs/security.md, "Sessions"): when each key was last used, for the idle
 * expiry; and how each one-time token reached its user ('mail' or 'screen'), since only a link
 * delivered by e-mail proves the address and earns the verification credits.
 */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.addColumn('api_keys', 'last_used_at', { type: DataTypes.DATE, allowNull: true });
  await qi.addColumn('user_tokens', 'delivery', { type: DataTypes.STRING(8), allowNull: true });
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.removeColumn('user_tokens', 'delivery');
  await qi.removeColumn('api_keys', 'last_used_at');
}
