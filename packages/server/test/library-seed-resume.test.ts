import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SEED_MARKER, bootstrapLibrary } from '../src/datasets/bootstrap.js';
import { defaultFixturesDir } from '../src/datasets/seed.js';
import { LocalStorage } from '../src/storage/index.js';
import { StartStop, StopDuringStart } from '../src/app/start-stop.js';
import { systemClock } from '../src/clock/index.js';
import { openTestDatabase, type TestDatabase } from './support/db.js';

/** A library whose writes fail from the Nth on: the seed stops there, as a killed process would. */
class FailingLibrary extends LocalStorage {
  writes = 0;
  constructor(
    root: string,
    private readonly failFrom: number,
  ) {
    super(root);
  }
  override async write(relativePath: string, data: Uint8Array | string): Promise<void> {
    if (++this.writes >= this.failFrom) throw new Error('killed');
    return super.write(relativePath, data);
  }
}

/** Two small sources of the real fixtures (the seed skips the ones missing from the directory). */
const SOURCES = ['official/EURUSD_H1_2017-2018.csv', 'freqtrade/XRP_ETH-5m.json'];

let fixtures: string;
let work: string;
const databases: TestDatabase[] = [];

before(() => {
  work = mkdtempSync(join(tmpdir(), 'bt-seed-resume-'));
  fixtures = join(work, 'fixtures');
  for (const file of SOURCES) {
    mkdirSync(dirname(join(fixtures, file)), { recursive: true });
    cpSync(join(defaultFixturesDir(), file), join(fixtures, file));
  }
});
after(async () => {
  for (const tdb of databases) await tdb.drop();
  rmSync(work, { recursive: true, force: true });
});

async function paths(tdb: TestDatabase): Promise<string[]> {
  return (await tdb.db.models.Dataset.findAll({ attributes: ['path'] })).map((d) => d.path).sort();
}

describe('seeding the library at start', () => {
  it('a seed interrupted halfway is finished by the next start; a start after that seeds nothing', async () => {
    const clean = await openTestDatabase();
    databases.push(clean);
    const cleanLogs: string[] = [];
    await bootstrapLibrary(clean.db, new LocalStorage(join(work, 'clean')), fixtures, (m) => cleanLogs.push(m));
    const expected = await paths(clean);
    assert.ok(expected.length > 12, `${expected.length} month files`);
    assert.equal((await clean.db.models.AdminSetting.findByPk(SEED_MARKER))?.value, 'done');

    const tdb = await openTestDatabase();
    databases.push(tdb);
    const dir = join(work, 'interrupted');
    // Past the first series (EURUSD H1, its months' CSV and Arrow files), inside the next ones.
    const failing = new FailingLibrary(dir, 30);
    await assert.rejects(bootstrapLibrary(tdb.db, failing, fixtures, () => {}), /killed/);
    const partial = await paths(tdb);
    assert.ok(partial.length > 0 && partial.length < expected.length, `${partial.length} of ${expected.length} month files indexed`);

    // Before the fix the next start saw a library that was not empty and never seeded the rest.
    const logs: string[] = [];
    await bootstrapLibrary(tdb.db, new LocalStorage(dir), fixtures, (m) => logs.push(m));
    assert.ok(logs.some((m) => /seed was interrupted: seeding again/.test(m)), logs.join('\n'));
    assert.deepEqual(await paths(tdb), expected);
    assert.equal((await tdb.db.models.AdminSetting.findByPk(SEED_MARKER))?.value, 'done');

    const counting = new FailingLibrary(dir, Number.MAX_SAFE_INTEGER);
    const again: string[] = [];
    await bootstrapLibrary(tdb.db, counting, fixtures, (m) => again.push(m));
    assert.equal(counting.writes, 0, 'the third start writes no month file');
    assert.deepEqual(again.filter((m) => /seed/.test(m)), []);
    assert.deepEqual(await paths(tdb), expected);
  });

  it('a stop asked during the seed (a SIGTERM while the server starts) ends it between two series; the next start seeds again', async () => {
    const tdb = await openTestDatabase();
    databases.push(tdb);
    const dir = join(work, 'stopped');
    const start = new StartStop();
    // The stop is asked during the first series' writes: that series ends, no other starts.
    class AskingLibrary extends LocalStorage {
      writes = 0;
      override async write(relativePath: string, data: Uint8Array | string): Promise<void> {
        if (++this.writes === 3) start.request('SIGTERM');
        return super.write(relativePath, data);
      }
    }
    const library = new AskingLibrary(dir);
    const stopped = await bootstrapLibrary(tdb.db, library, fixtures, () => {}, systemClock, start.signal).then(
      () => null,
      (err: unknown) => err,
    );
    assert.ok(stopped instanceof StopDuringStart, String(stopped));
    const first = await paths(tdb);
    assert.ok(first.length > 0 && first.every((p) => p.startsWith('EURUSD/H1/')), first.join(', '));
    assert.equal((await tdb.db.models.AdminSetting.findByPk(SEED_MARKER))?.value, 'running');
    // The library's lease was given back: the next start takes it and finishes the seed.
    const logs: string[] = [];
    await bootstrapLibrary(tdb.db, new LocalStorage(dir), fixtures, (m) => logs.push(m));
    assert.ok(logs.some((m) => /seed was interrupted: seeding again/.test(m)), logs.join('\n'));
    assert.equal((await tdb.db.models.AdminSetting.findByPk(SEED_MARKER))?.value, 'done');
    assert.ok((await paths(tdb)).length > first.length);
  });

  it('a library seeded before the marker existed (rows, no marker) is left as it is', async () => {
    const tdb = await openTestDatabase();
    databases.push(tdb);
    const dir = join(work, 'older');
    await bootstrapLibrary(tdb.db, new LocalStorage(dir), fixtures, () => {});
    await tdb.db.models.AdminSetting.destroy({ where: { name: SEED_MARKER } });
    const counting = new FailingLibrary(dir, Number.MAX_SAFE_INTEGER);
    await bootstrapLibrary(tdb.db, counting, fixtures, () => {});
    assert.equal(counting.writes, 0);
  });
});
