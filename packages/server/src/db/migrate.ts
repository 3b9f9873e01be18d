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

/**
 * Applies pending migrations; returns their names. With a `signal`, one at a time, and none more
 * once it is aborted (its reason thrown): a stop asked during the start lets the running migration
 * end, never cuts it (src/app/start-stop.ts). `applied` follows each one (a test's hold).
 */
export async function migrate(
  sequelize: Sequelize,
  log?: (message: string) => void,
  options: { signal?: AbortSignal; applied?: (name: string) => Promise<void> } = {},
): Promise<string[]> {
  const umzug = migrator(sequelize, log);
  if (!options.signal && !options.applied) return (await umzug.up()).map((m) => m.name);
  const done: string[] = [];
  for (const { name } of await umzug.pending()) {
    options.signal?.throwIfAborted();
    await umzug.up({ migrations: [name] });
    done.push(name);
    await options.applied?.(name);
  }
  return done;
}
