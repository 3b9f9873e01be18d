// Sequelize's SQLite statements format the caller's stack only for a failed statement
// (src/db/sqlite-query.ts; docs/server.md, "SQLite"): reads and writes that succeed format none,
// and a failed one's error still names where it was called from.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { UniqueConstraintError } from 'sequelize';
import { openDatabase, type Database } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';

let dir: string;
let db: Database;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bt-sqlite-stacks-'));
  db = await openDatabase(`sqlite:${join(dir, 'bt.sqlite')}`, { dataDir: dir });
  await migrate(db.sequelize);
});
after(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** How many stacks V8 formats while `fn` runs (V8 calls Error.prepareStackTrace for each). */
async function stacksFormatted(fn: () => Promise<unknown>): Promise<number> {
  let formatted = 0;
  const previous = Error.prepareStackTrace;
  Error.prepareStackTrace = (error, frames) => {
    formatted++;
    return `${error}\n${frames.map((frame) => `    at ${frame}`).join('\n')}`;
  };
  try {
    await fn();
  } finally {
    Error.prepareStackTrace = previous;
  }
  return formatted;
}

async function createTwice(email: string) {
  const { User } = db.models;
  await User.create({ firstName: 'Deux', lastName: 'Fois', email });
  return await User.create({ firstName: 'Deux', lastName: 'Fois', email });
}

describe("Sequelize's SQLite statements", () => {
  it('copies the run of the Sequelize version installed (a new version must be compared with it first)', () => {
    const require = createRequire(import.meta.url);
    const version = (require('sequelize/package.json') as { version: string }).version;
    assert.match(version, /^6\.37\./, `sequelize ${version}: compare its lib/dialects/sqlite/query.js run() with src/db/sqlite-query.ts, then update this test`);
    const upstream = readFileSync(require.resolve('sequelize/lib/dialects/sqlite/query'), 'utf8');
    assert.ok(upstream.includes('resolve(query._handleQueryResponse(this, columnTypes, executionError, results, errForStack.stack));'), 'the upstream run still reads the stack after every statement');
  });

  it('formats no stack for statements that succeed: inserts, reads, updates, counts, in and out of a transaction', async () => {
    const { User } = db.models;
    const formatted = await stacksFormatted(async () => {
      for (let i = 0; i < 20; i++) {
        const user = await User.create({ firstName: 'Lu', lastName: `${i}`, email: `lu${i}@bt.test` });
        assert.equal((await User.findByPk(user.id))!.lastName, `${i}`);
        await User.update({ firstName: 'Relu' }, { where: { id: user.id } });
      }
      assert.equal(await User.count({ where: { firstName: 'Relu' } }), 20);
      await db.transaction(async (transaction) => {
        const rows = await User.findAll({ where: { firstName: 'Relu' }, transaction });
        assert.equal(rows.length, 20);
      });
    });
    assert.equal(formatted, 0);
  });

  it("gives a failed statement's error the stack of its call site, as Sequelize did", async () => {
    let failure: unknown;
    // Deep enough for the frames above Sequelize's own (10 by default, all Sequelize's here).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 50;
    const formatted = await stacksFormatted(async () => {
      failure = await createTwice('twice@bt.test').then(
        () => assert.fail('a second account with the same address was created'),
        (err: unknown) => err,
      );
    }).finally(() => {
      Error.stackTraceLimit = limit;
    });
    assert.ok(failure instanceof UniqueConstraintError, String(failure));
    assert.ok(formatted >= 1, 'the failed statement formatted its stack');
    const stack = String((failure as Error).stack);
    assert.match(stack, /User\.create/, 'the stack names the model call that sent the statement');
    assert.match(stack, /db-sqlite-stacks\.test\.[jt]s/, 'and the file it was called from');
    // The database is still usable, and the statement's SQL is on the error as before.
    assert.match(String((failure as { sql?: string }).sql ?? (failure as { parent?: { sql?: string } }).parent?.sql), /INSERT INTO/);
    assert.equal(await db.models.User.count({ where: { email: 'twice@bt.test' } }), 1);
  });
});
