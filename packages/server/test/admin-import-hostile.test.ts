import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { importArchive, importForm, libraryCsv } from './support/import-archives.js';
import { makeAdmin } from './support/work.js';

const MB = 1024 * 1024;
const t = useTestApp({
  library: true,
  config: { imports: { maxArchiveBytes: 4 * MB, maxEntryBytes: 2 * MB, maxInflatedBytes: 64 * MB, maxEntries: 100, urlTimeoutMs: 1500, maxRedirects: 3, urlAllow: [] } },
});
let admin: { key: string };

const post = (fields: Record<string, string>, archive: Buffer) =>
  t.request('POST', '/api/admin/maintenance/import-output', { key: admin.key, form: importForm(fields, { name: 'output.zip', bytes: archive }) });

describe(`admin import of hostile archives (${TEST_DIALECT})`, () => {
  before(async () => {
    admin = await makeAdmin(t);
  });

  it('a target month of the years 0 to 99 is that month, not the same month of 1900 to 1999', async () => {
    const march = libraryCsv(t.libraryDir, 'EURUSD', 'M15', '2023-03');
    const res = await post({ target_month: '0050-03' }, importArchive([{ name: 'GBPUSD_M15.csv', data: march.replaceAll('2023-03-', '1950-03-') }]));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.counts, { added: 0, skipped: 0, overwritten: 0, errors: 1 });
    assert.match(res.body.errors[0].detail, /^Bougies hors du mois cible 0050-03 \(du 1950-03-01 00:00 au 1950-03-31 21:45\)\.$/);
    assert.equal(await t.db.models.Dataset.count({ where: { month: '0050-03' } }), 0, 'no month filed under a year it does not hold');
  });

  it('an encrypted entry and one compressed with another method are each said for what they are; the others land', async () => {
    const march = libraryCsv(t.libraryDir, 'EURUSD', 'M15', '2023-03');
    const archive = importArchive([
      { name: 'GBPUSD_M15_2023-03.csv', data: march },
      { name: 'AUDUSD_M15_2023-03.csv', data: march },
      { name: 'NZDUSD_M15_2023-03.csv', data: march },
    ]);
    // Flags and method of the first two entries, in their local and central headers alike.
    const set = (entry: number, at: { local: number; central: number }, value: number) => {
      let local = -1;
      let central = -1;
      for (let k = 0; k <= entry; k++) {
        local = archive.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]), local + 1);
        central = archive.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), central + 1);
      }
      archive.writeUInt16LE(value, local + at.local);
      archive.writeUInt16LE(value, central + at.central);
    };
    set(0, { local: 6, central: 8 }, 1); // general purpose bit 0: encrypted
    set(1, { local: 8, central: 10 }, 12); // bzip2
    const res = await post({ target_month: '2023-03', dry_run: 'true' }, archive);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.errors, [
      { file: 'GBPUSD_M15_2023-03.csv', detail: 'Entrée chiffrée (protégée par un mot de passe) : refaire l’archive sans mot de passe.' },
      { file: 'AUDUSD_M15_2023-03.csv', detail: 'Méthode de compression non prise en charge (12) : seules « stockée » et « deflate » sont lues.' },
    ]);
    assert.deepEqual(res.body.added.map((f: { path: string }) => f.path), ['NZDUSD/M15/NZDUSD_M15_2023-03.csv']);
  });

  it('a truncated archive, or one that is not a ZIP, is refused in French', async () => {
    const march = libraryCsv(t.libraryDir, 'EURUSD', 'M15', '2023-03');
    const whole = importArchive([{ name: 'GBPUSD_M15_2023-03.csv', data: march }]);
    for (const archive of [whole.subarray(0, whole.length - 30), whole.subarray(0, whole.length >> 1), Buffer.from(march)]) {
      const res = await post({ target_month: '2023-03' }, archive);
      assert.deepEqual([res.status, res.body.detail], [400, 'Le fichier n\'est pas une archive ZIP lisible (fin d’archive introuvable : fichier tronqué, ou d’un autre format que ZIP).']);
    }
    assert.equal(await t.db.models.Dataset.count({ where: { path: 'GBPUSD/M15/GBPUSD_M15_2023-03.csv' } }), 0);
  });
});

