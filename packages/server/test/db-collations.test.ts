// MySQL databases made without bt's collation (docs/deployment.md "The database"): an operator's
// plain `CREATE DATABASE bt` is utf8mb4_general_ci on MariaDB's defaults, or latin1 on older
// servers. Before migration 0007 every backtest there answered 500 ("Illegal mix of collations"
// between a column and a stored procedure's parameter) and a name with an emoji could not be stored.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QueryTypes } from 'sequelize';
import { newPerson, startTestApp } from './support/app.js';
import { TEST_DIALECT, openTestDatabase } from './support/db.js';
import { runBacktest } from './support/work.js';

const CREATED_AS = [
  ['the server’s defaults', ''],
  ['latin1', 'CHARACTER SET latin1 COLLATE latin1_swedish_ci'],
] as const;

describe(`databases created in another collation (${TEST_DIALECT})`, { skip: TEST_DIALECT !== 'mysql' && 'MySQL only: SQLite stores UTF-8 and compares bytes' }, () => {
  for (const [label, createOptions] of CREATED_AS) {
    it(`a database created with ${label}: migrated to utf8mb4_unicode_ci; backtests, emoji and look-ups work`, async () => {
      const tdb = await openTestDatabase(createOptions);
      const t = await startTestApp(tdb.db, { library: true });
      try {
        const tables = await tdb.db.sequelize.query<{ name: string; collation: string }>(
          "SELECT TABLE_NAME AS name, TABLE_COLLATION AS collation FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE'",
          { type: QueryTypes.SELECT },
        );
        assert.ok(tables.length >= 20, `${tables.length} tables`);
        assert.deepEqual(tables.filter((row) => row.collation !== 'utf8mb4_unicode_ci'), []);
        const [schema] = await tdb.db.sequelize.query<{ collation: string }>('SELECT DEFAULT_COLLATION_NAME AS collation FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = DATABASE()', { type: QueryTypes.SELECT });
        assert.equal(schema.collation, 'utf8mb4_unicode_ci', 'later tables get it too');

        const person = { ...newPerson('collation'), first_name: 'Zoé 🚀', last_name: 'Müller' };
        const registered = await t.request('POST', '/api/register', { json: person });
        assert.equal(registered.status, 201, registered.text);
        const key = registered.body.token as string;
        const me = await t.request('GET', '/api/me', { key });
        assert.equal(me.body.first_name, 'Zoé 🚀');
        await t.app.services.ledger.grant(me.body.id, 4, 'admin');
        const run = await runBacktest(t, key);
        assert.equal(run.status, 200, run.text);
        assert.equal((await t.request('GET', '/api/me', { key })).body.credits, 2);
        const support = await t.request('POST', '/api/support', { json: { type: 'feedback', firstName: 'Zoé', lastName: '🚀', email: person.email, message: 'Merci 🙏 pour les Golden Hours' } });
        assert.equal(support.status, 201, support.text);
        const login = await t.request('POST', '/api/login', { json: { identifier: person.email.toUpperCase(), password: person.password } });
        assert.equal(login.status, 200, 'the address in capitals is the same account');
      } finally {
        await t.close();
        await tdb.drop();
      }
    });
  }
});
