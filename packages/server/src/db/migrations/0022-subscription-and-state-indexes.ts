import type { QueryInterface } from 'sequelize';

/**
 * Two lookups that read whole tables. Stripe's subscription notices find the account by
 * `subscription_id` (payments/subscriptions.ts): without an index the UPDATE read every account,
 * and on MariaDB locked every account's row until it committed, so every backtest charge, purchase
 * and sign-in of every user waited for a notice about one of them (docs/server.md, "Sign-ups at
 * once on MariaDB"). A Google sign-in's start and the minute sweep find expired `oidc_states` by
 * `expires_at`.
 */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.addIndex('users', ['subscription_id'], { name: 'users_subscription' });
  await qi.addIndex('oidc_states', ['expires_at'], { name: 'oidc_states_expires' });
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.removeIndex('oidc_states', 'oidc_states_expires');
  await qi.removeIndex('users', 'users_subscription');
}
