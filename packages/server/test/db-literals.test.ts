// Values Sequelize writes into its own queries, on the test dialect: a NUL character or a quote in
// a `where` value is that value, never the end of the statement or a piece of SQL (db/database.ts,
// nulSafeSqliteLiterals). The API refuses a NUL at its door (app/input.ts, errors.test.ts); this
// checks the layer under it alone.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Op } from 'sequelize';
import { openTestDatabase, type TestDatabase, TEST_DIALECT } from './support/db.js';

let t: TestDatabase;
before(async () => {
  t = await openTestDatabase();
});
after(() => t.drop());

describe(`literals in Sequelize's queries (${TEST_DIALECT})`, () => {
  it('finds a value holding NUL characters and quotes by equality and IN, and nothing else', async () => {
    const { User } = t.db.models;
    const odd = "a\u0000b'c\u0000";
    const user = await User.create({ firstName: 'Nul', lastName: odd, email: 'nul@bt.test' });
    await User.create({ firstName: 'Autre', lastName: 'ab', email: 'autre@bt.test' });
    const equal = await User.findAll({ where: { lastName: odd } });
    assert.deepEqual(equal.map((u) => u.id), [user.id]);
    assert.equal(equal[0].lastName, odd, 'stored and read back unchanged');
    const listed = await User.findAll({ where: { lastName: { [Op.in]: [odd, 'zz'] } } });
    assert.deepEqual(listed.map((u) => u.id), [user.id]);
    // A quote in a LIKE pattern is a quote. (SQLite's LIKE reads a value and a pattern only up to
    // a NUL, one more reason the API refuses NUL characters before any query.)
    const quoted = await User.create({ firstName: 'Quote', lastName: "d'Artagnan", email: 'quote@bt.test' });
    const like = await User.findAll({ where: { lastName: { [Op.like]: "%'Art%" } } });
    assert.deepEqual(like.map((u) => u.id), [quoted.id]);
  });

  it('answers "nothing" for a NUL that would cut the statement, and updates by such a value', async () => {
    const { User } = t.db.models;
    assert.equal(await User.findOne({ where: { username: "x\u0000' OR 1=1 --" } }), null);
    assert.equal(await User.findOne({ where: { email: '\u0000' } }), null);
    const user = await User.create({ firstName: 'Maj', lastName: 'avant', email: 'maj@bt.test', username: 'nom\u0000cache' });
    const [changed] = await User.update({ lastName: 'après\u0000' }, { where: { username: 'nom\u0000cache' } });
    assert.equal(changed, 1);
    assert.equal((await User.findByPk(user.id))!.lastName, 'après\u0000');
  });
});
