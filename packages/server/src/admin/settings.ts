import type { Database } from '../db/database.js';

/** The console's own markers (`admin_settings`): small named values, written in a transaction. */
export class AdminSettings {
  constructor(private readonly db: Database) {}

  async get(name: string): Promise<string | null> {
    return (await this.db.models.AdminSetting.findByPk(name))?.value ?? null;
  }

  async set(name: string, value: string): Promise<void> {
    await this.db.transaction((t) => this.db.models.AdminSetting.upsert({ name, value }, { transaction: t }));
  }
}
