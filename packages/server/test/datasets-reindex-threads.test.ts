import assert from 'node:assert/strict';
import { readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DatasetStore } from '../src/datasets/store.js';
import { LocalStorage } from '../src/storage/index.js';
import { useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { makeAdmin } from './support/work.js';

const t = useTestApp({ library: true });

/** Every month CSV of the library, relative to it. */
function monthCsvs(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[]).filter((p) => p.endsWith('.csv') && !p.startsWith('.')).sort();
}

/** The index as rows comparable across two reindexes (ids and times aside). */
async function indexRows() {
  const rows = await t.db.models.Dataset.findAll({ order: [['path', 'ASC']] });
  return rows.map((r) => [r.path, r.rows, r.checksum, r.firstCandle.getTime(), r.lastCandle.getTime(), r.bytes, r.ipcPath]);
}

describe(`reindex reads stale months off the event loop (${TEST_DIALECT})`, () => {
  it('every stale month is parsed in a parse process, never on the event loop; the index, the errors and their sentences are those of an in-process reindex', async () => {
    const admin = await makeAdmin(t);
    const csvs = monthCsvs(t.libraryDir);
    assert.ok(csvs.length >= 50, `${csvs.length} months`);
    // Every Arrow copy made stale (its CSV newer), half of them gone: each month's CSV is read.
    const later = new Date(Date.now() + 60_000);
    for (const [i, csv] of csvs.entries()) {
      utimesSync(join(t.libraryDir, csv), later, later);
      if (i % 2 === 0) rmSync(join(t.libraryDir, csv.replace(/\.csv$/, '.arrow')), { force: true });
    }
    // And two months that do not read: a value that is not a number, a file without a candle.
    writeFileSync(join(t.libraryDir, 'EURUSD/M15/EURUSD_M15_2030-01.csv'), 'Datetime,Open,High,Low,Close,Volume\n2030-01-01 00:00:00+00:00,1.1,abc,1.0,1.1,5\n');
    writeFileSync(join(t.libraryDir, 'EURUSD/M15/EURUSD_M15_2030-02.csv'), 'Datetime,Open,High,Low,Close,Volume\n');
    const rowsBefore = await indexRows();

    const res = await t.request('POST', '/api/admin/csv/reindex-output', { key: admin.key });
    assert.equal(res.status, 200, res.text);
    const readers = [...t.app.services.datasets.csvReaders];
    assert.ok(readers.length > 0, 'CSVs were parsed');
    assert.ok(!readers.includes(0), `parsed by ${readers.join(', ')}, the event loop (0) is not one`);
    assert.ok(!readers.includes(process.pid), 'nor this process');
    const onThreads = { result: res.body.result, rows: await indexRows() };
    assert.deepEqual(onThreads.rows, rowsBefore, 'the index of the whole months is unchanged');

    // The same library reindexed in-process (the former way): the same answer, word for word.
    for (const csv of csvs) utimesSync(join(t.libraryDir, csv), new Date(Date.now() + 120_000), new Date(Date.now() + 120_000));
    const inProcess = new DatasetStore(t.db, new LocalStorage(t.libraryDir));
    const again = await inProcess.reindex();
    assert.deepEqual([...inProcess.csvReaders], [0]);
    assert.deepEqual(
      { datasets: onThreads.result.datasets, files: onThreads.result.files, errors: onThreads.result.errors },
      { datasets: again.datasets, files: again.files, errors: again.errors },
    );
    assert.deepEqual(await indexRows(), onThreads.rows);
    const errors = Object.fromEntries(again.errors.map((e) => [e.path, e.detail]));
    assert.match(errors['EURUSD/M15/EURUSD_M15_2030-01.csv'], /ligne 2, colonne High/);
    assert.equal(errors['EURUSD/M15/EURUSD_M15_2030-02.csv'], 'Fichier invalide : ligne 2 : le fichier a un en-tête mais aucune bougie.');
    assert.deepEqual(res.body.status, 'partial');
  });
});
