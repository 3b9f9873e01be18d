import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { QueryTypes } from 'sequelize';
import { instanceFromRow, selectColumns } from '../src/db/rows.js';
import { openTestDatabase, type TestDatabase } from './support/db.js';

let t: TestDatabase;
before(async () => {
  t = await openTestDatabase();
});
after(() => t.drop());

/** The row as one raw statement reads it, then built as findByPk would. */
async function viaRow(id: number) {
  const { User } = t.db.models;
  const q = (name: string) => t.db.sequelize.getQueryInterface().quoteIdentifier(name);
  const [row] = await t.db.sequelize.query<Record<string, unknown>>(`SELECT ${selectColumns(User, 'u', 'x_', q)} FROM ${q('users')} ${q('u')} WHERE ${q('u')}.${q('id')} = ${id}`, {
    type: QueryTypes.SELECT,
    raw: true,
  });
  return instanceFromRow(User, row, 'x_');
}

describe('model instances from raw rows (the one-statement sign-in lookup)', () => {
  it('equal the instance findByPk builds: dates as Date (null kept), booleans as boolean, numbers, strings', async () => {
    const { User } = t.db.models;
    const plain = await User.create({ firstName: 'Zoé', lastName: "O'Neil \"x\"", email: 'zoe@bt.test' });
    const full = await User.create({
      firstName: 'Max',
      lastName: 'Ü',
      email: 'max@bt.test',
      role: 'admin',
      credits: 123456,
      emailVerified: true,
      emailVerifiedAt: new Date('2026-02-03T04:05:06Z'),
      subscriptionRenewDate: new Date('2026-12-31T23:59:59Z'),
      subscriptionAutoRenew: true,
      backtestPriority: true,
      lastSeenAt: new Date('2026-01-15T10:00:00Z'),
      deletedAt: new Date('2026-03-01T00:00:00Z'),
    });
    for (const id of [plain.id, full.id]) {
      const expected = await User.findByPk(id);
      const built = await viaRow(id);
      assert.deepEqual(built.get({ plain: true }), expected!.get({ plain: true }));
      assert.equal(built.isNewRecord, false);
      assert.deepEqual(built.changed(), false);
    }
    const built = await viaRow(full.id);
    assert.ok(built.lastSeenAt instanceof Date && built.deletedAt instanceof Date);
    assert.equal(built.emailVerified, true);
    // A stored instance: an update writes only what changed, on its row.
    await built.update({ credits: 7 });
    assert.equal((await User.findByPk(full.id))!.credits, 7);
    assert.equal((await User.findByPk(plain.id))!.credits, 0);
  });

  it('a missing column is an error, not an undefined attribute', async () => {
    assert.throws(() => instanceFromRow(t.db.models.User, { x_id: 1 }, 'x_'), /column x_username missing for User\.username/);
  });
});
