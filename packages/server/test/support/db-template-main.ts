// `tsx test/support/db-template-main.ts NAME`: creates and migrates the MariaDB pass's template
// database NAME (scripts/test-mariadb.mjs runs it once per pass; test/support/db-template.ts).
import { MYSQL_CREATE_OPTIONS, MYSQL_SERVER } from './db.js';
import { createMigratedTemplate } from './db-template.js';

const name = process.argv[2];
if (!name || !/^bt_test_template_\w+$/.test(name)) {
  console.error('usage: db-template-main.ts bt_test_template_<suffix>');
  process.exit(2);
}
const started = performance.now();
await createMigratedTemplate(MYSQL_SERVER, name, MYSQL_CREATE_OPTIONS);
console.log(`MariaDB pass: template database ${name} migrated in ${Math.round(performance.now() - started)} ms; each file's database is a copy of it`);
