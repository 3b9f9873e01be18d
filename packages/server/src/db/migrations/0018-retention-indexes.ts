import type { QueryInterface } from 'sequelize';

/**
 * The rows the minute sweep removes once past their use (docs/server.md "Data retention";
 * src/retention/): support messages after 24 months, one-time links 30 days after their expiry,
 * session keys idle past their limit. Each server looks once a minute; without these indexes each
 * look read the whole table, the support messages' text included.
 */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.addIndex('support_messages', ['created_at'], { name: 'support_messages_created' });
  await qi.addIndex('user_tokens', ['expires_at'], { name: 'user_tokens_expires' });
  await qi.addIndex('api_keys', ['last_used_at'], { name: 'api_keys_last_used' });
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.removeIndex('api_keys', 'api_keys_last_used');
  await qi.removeIndex('user_tokens', 'user_tokens_expires');
  await qi.removeIndex('support_messages', 'support_messages_created');
}
