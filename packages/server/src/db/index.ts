export * from './database.js';
export * from './models.js';
export { migrate, migrator } from './migrate.js';
