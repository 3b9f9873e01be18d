import { SequelizeStorage, Umzug } from 'umzug';
import type { Sequelize } from 'sequelize';
import { migrations } from './migrations/index.js';

export function migrator(sequelize: Sequelize, log: (message: string) => void = () => {}) {
  return new Umzug({
    migrations,
    context: sequelize.getQueryInterface(),
    storage: new SequelizeStorage({ sequelize, tableName: 'schema_migrations' }),
    logger: { info: (e) => log(`migration ${String((e as { event?: string }).event ?? '')} ${String((e as { name?: string }).name ?? '')}`.trim()), warn: () => {}, error: () => {}, debug: () => {} },
  });
}

/** Applies pending migrations; returns their names. */
export async function migrate(sequelize: Sequelize, log?: (message: string) => void): Promise<string[]> {
  const done = await migrator(sequelize, log).up();
  return done.map((m) => m.name);
}
