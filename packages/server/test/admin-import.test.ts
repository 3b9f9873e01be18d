import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readCandlesCsv } from '@bt/core/candles';
import { addressAllowed, allowList, fetchSource } from '../src/admin/import/source-url.js';
import { HttpError } from '../src/app/errors.js';
import { useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { bombBytes, importArchive, importForm, libraryCsv, withoutRsi } from './support/import-archives.js';
import { makeAdmin } from './support/work.js';

const MB = 1024 * 1024;
const t = useTestApp({
  library: true,
  config: { imports: { maxArchiveBytes: 4 * MB, maxEntryBytes: 2 * MB, maxInflatedBytes: 64 * MB, maxEntries: 100, urlTimeoutMs: 1500, maxRedirects: 3, urlAllow: ['127.0.0.1/32'] } },
});
let admin: { key: string };
let server: Server;
let base = '';
const served = new Map<string, (res: import('node:http').ServerResponse) => void>();

before(async () => {
  server = createServer((req, res) => {
    const handler = served.get(req.url ?? '');
    if (handler) handler(res);
    else res.writeHead(404).end('not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const post = (fields: Record<string, string>, archive?: Buffer, name = 'output.zip') =>
  t.request('POST', '/api/admin/maintenance/import-output', { key: admin.key, form: importForm(fields, archive ? { name, bytes: archive } : undefined) });

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Every index row matches its file, every month file has its row, and no staging file is left. */
async function assertIndexConsistent() {
  const rows = await t.db.models.Dataset.findAll();
  for (const row of rows) {
    const file = join(t.libraryDir, row.path);
    assert.ok(existsSync(file), row.path);
    assert.equal(row.checksum, sha(file), row.path);
    assert.ok(existsSync(join(t.libraryDir, row.ipcPath)), row.ipcPath);
  }
  assert.equal(await t.db.models.DatasetJournalEntry.count(), 0);
  const staging = join(t.libraryDir, '.staging');
  assert.ok(!existsSync(staging) || readdirSync(staging).length === 0, 'no staging file left');
}

describe(`admin import of output data (${TEST_DIALECT})`, () => {
  before(async () => {
    admin = await makeAdmin(t);
  });

  it('a ZIP of good, duplicate, malformed, traversal, absolute, link and bomb entries: only good files land, the rest are reported', async () => {
    const march = libraryCsv(t.libraryDir, 'EURUSD', 'M15', '2023-03');
    const rowsBefore = await t.db.models.Dataset.count();
    const broken = march.replace(/^(2023-03-01 00:15:00\+00:00,[^,]+,[^,]+,[^,]+,)[^,]+/m, '$1abc');
    const archive = importArchive([
      { name: 'output/GBPUSD/M15/GBPUSD_M15_2023-03.csv', data: withoutRsi(march) },
      { name: 'output/EURUSD_M15_2023-03.csv', data: march },
      { name: 'copies/GBPUSD_M15.csv', data: march },
      { name: 'AUDUSD_M15_2023-03.csv', data: broken },
      { name: '../EURJPY_M15_2023-03.csv', data: march },
      { name: 'ok/../../x.csv', data: march },
      { name: '/tmp/USDCHF_M15_2023-03.csv', data: march },
      { name: 'C:/data/USDCAD_M15_2023-03.csv', data: march },
      { name: 'NZDUSD_M15_2023-03.csv', data: '/etc/passwd', link: true },
      { name: 'USDJPY_M15_2023-03.csv', data: bombBytes(40) },
      { name: 'XAUUSD_M15_2023-03.csv', data: bombBytes(30), claimedSize: 1000 },
      { name: 'EURGBP_M15_2023-04.csv', data: march },
      { name: 'FOOBAR_M15_2023-03.csv', data: march },
      { name: 'README.txt', data: 'notes' },
      { name: '__MACOSX/._GBPUSD_M15_2023-03.csv', data: 'meta' },
    ]);
    const res = await post({ target_month: '2023-03' }, archive);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.target_month, res.body.mode, res.body.dry_run], ['2023-03', 'skip', false]);
    assert.deepEqual(res.body.added.map((f: { file: string; path: string }) => [f.file, f.path]), [['output/GBPUSD/M15/GBPUSD_M15_2023-03.csv', 'GBPUSD/M15/GBPUSD_M15_2023-03.csv']]);
    assert.deepEqual(res.body.skipped.map((f: { path: string }) => f.path), ['EURUSD/M15/EURUSD_M15_2023-03.csv']);
    assert.deepEqual(res.body.overwritten, []);
    const errors = Object.fromEntries(res.body.errors.map((e: { file: string; detail: string }) => [e.file, e.detail]));
    assert.deepEqual(Object.keys(errors).sort(), [
      '../EURJPY_M15_2023-03.csv', '/tmp/USDCHF_M15_2023-03.csv', 'AUDUSD_M15_2023-03.csv', 'C:/data/USDCAD_M15_2023-03.csv', 'EURGBP_M15_2023-04.csv',
      'FOOBAR_M15_2023-03.csv', 'NZDUSD_M15_2023-03.csv', 'README.txt', 'USDJPY_M15_2023-03.csv', 'XAUUSD_M15_2023-03.csv', 'copies/GBPUSD_M15.csv', 'ok/../../x.csv',
    ]);
    assert.equal(errors['../EURJPY_M15_2023-03.csv'], 'Chemin avec « .. » refusé (sortie du dossier).');
    assert.equal(errors['ok/../../x.csv'], 'Chemin avec « .. » refusé (sortie du dossier).');
    assert.equal(errors['/tmp/USDCHF_M15_2023-03.csv'], 'Chemin absolu refusé.');
    assert.equal(errors['C:/data/USDCAD_M15_2023-03.csv'], 'Chemin absolu refusé.');
    assert.equal(errors['NZDUSD_M15_2023-03.csv'], 'Lien symbolique refusé.');
    assert.equal(errors['USDJPY_M15_2023-03.csv'], 'Fichier trop volumineux une fois décompressé (2 Mo maximum).');
    // A bomb whose header lies about its size is cut when the lie shows (yauzl checks sizes while inflating).
    assert.equal(errors['XAUUSD_M15_2023-03.csv'], 'Entrée illisible (données compressées endommagées ou taille annoncée fausse).');
    assert.match(errors['AUDUSD_M15_2023-03.csv'], /^Fichier invalide : ligne 3, colonne Close : « abc »/);
    assert.match(errors['copies/GBPUSD_M15.csv'], /^Doublon dans l'archive : même symbole et unité de temps que output\/GBPUSD\/M15\/GBPUSD_M15_2023-03\.csv/);
    assert.equal(errors['EURGBP_M15_2023-04.csv'], 'Le fichier est daté 2023-04, le mois cible est 2023-03.');
    assert.equal(errors['FOOBAR_M15_2023-03.csv'], 'Symbole hors catalogue : « FOOBAR ».');
    assert.equal(errors['README.txt'], 'Fichier ignoré : seuls les .csv sont importés.');
    assert.deepEqual(res.body.counts, { added: 1, skipped: 1, overwritten: 0, errors: 12 });

    // Only the good file landed, with its Arrow copy and its index row; nothing else was written.
    assert.equal(await t.db.models.Dataset.count(), rowsBefore + 1);
    const landed = readCandlesCsv(readFileSync(join(t.libraryDir, 'GBPUSD/M15/GBPUSD_M15_2023-03.csv')), { symbol: 'GBPUSD' }).candles;
    assert.equal(landed.length, readCandlesCsv(march, { symbol: 'EURUSD' }).candles.length);
    assert.ok(landed.extra.RSI_14, 'RSI_14 computed on import');
    for (const path of ['x.csv', '../x.csv', 'EURJPY', 'USDCHF', 'USDJPY', 'XAUUSD', 'NZDUSD', 'AUDUSD', 'FOOBAR']) assert.ok(!existsSync(join(t.libraryDir, path)), path);
    await assertIndexConsistent();
    const listed = await t.request('GET', '/api/list_csv_library?symbol=GBPUSD&timeframe=M15');
    assert.deepEqual(listed.body.files.map((f: { path: string }) => f.path), ['GBPUSD/M15/GBPUSD_M15_2023-03.csv']);
  });

  it('overwrite replaces a month, with RSI_14 warmed up on the earlier months; a dry run writes nothing', async () => {
    const seeded = libraryCsv(t.libraryDir, 'EURUSD', 'M30', '2023-05');
    const archive = importArchive([{ name: 'EURUSD_M30_2023-05.csv', data: withoutRsi(seeded) }, { name: 'NZDUSD_M30.csv', data: withoutRsi(seeded) }]);
    const dry = await post({ target_month: '2023-05', mode: 'overwrite', dry_run: 'true' }, archive);
    assert.equal(dry.status, 200, dry.text);
    assert.deepEqual([dry.body.dry_run, dry.body.counts], [true, { added: 1, skipped: 0, overwritten: 1, errors: 0 }]);
    assert.ok(!existsSync(join(t.libraryDir, 'NZDUSD')));
    assert.equal(libraryCsv(t.libraryDir, 'EURUSD', 'M30', '2023-05'), seeded);

    const res = await post({ target_month: '2023-05', mode: 'overwrite' }, archive);
    assert.deepEqual(res.body.counts, { added: 1, skipped: 0, overwritten: 1, errors: 0 });
    const before = readCandlesCsv(seeded, { symbol: 'EURUSD' }).candles;
    const now = readCandlesCsv(libraryCsv(t.libraryDir, 'EURUSD', 'M30', '2023-05'), { symbol: 'EURUSD' }).candles;
    assert.deepEqual(Array.from(now.close), Array.from(before.close));
    // The seed computed RSI over the whole series; the import, over 500 earlier candles: the same values.
    for (let i = 0; i < now.length; i++) assert.ok(Math.abs(now.extra.RSI_14[i] - before.extra.RSI_14[i]) < 1e-9, `RSI at ${i}`);
    await assertIndexConsistent();
    const skipped = await post({ target_month: '2023-05' }, archive);
    assert.deepEqual(skipped.body.counts, { added: 0, skipped: 2, overwritten: 0, errors: 0 });
  });

  it('imports from a URL on a local server; refuses private addresses, also behind a redirect and under a name', async () => {
    const csv = withoutRsi(libraryCsv(t.libraryDir, 'EURUSD', 'H1', '2023-06'));
    const archive = importArchive([{ name: 'AUDUSD_H1_2023-06.csv', data: csv }]);
    served.set('/output.zip', (res) => res.writeHead(200, { 'content-type': 'application/zip' }).end(archive));
    served.set('/moved', (res) => res.writeHead(302, { location: '/output.zip' }).end());
    served.set('/to-metadata', (res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end());
    served.set('/big.zip', (res) => res.writeHead(200).end(Buffer.alloc(5 * MB)));
    served.set('/slow.zip', (res) => res.writeHead(200, { 'content-length': '100' }).write('PK'));
    served.set('/missing.zip', (res) => res.writeHead(404).end());

    const res = await post({ source_url: `${base}/moved`, target_month: '2023-06' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.added.map((f: { path: string }) => f.path), ['AUDUSD/H1/AUDUSD_H1_2023-06.csv']);
    assert.ok(existsSync(join(t.libraryDir, 'AUDUSD/H1/AUDUSD_H1_2023-06.csv')));

    for (const [url, status, detail] of [
      ['http://10.1.2.3/output.zip', 400, /^URL refusée : 10\.1\.2\.3 désigne une adresse privée ou locale \(10\.1\.2\.3\)\. Ajoute son réseau à IMPORT_URL_ALLOW/],
      ['http://[::1]/output.zip', 400, /adresse privée ou locale \(::1\)/],
      ['http://192.168.1.10/output.zip', 400, /adresse privée ou locale/],
      ['http://0.0.0.0/output.zip', 400, /adresse privée ou locale/],
      ['http://[::ffff:10.0.0.1]/output.zip', 400, /adresse privée ou locale/],
      [`${base}/to-metadata`, 400, /169\.254\.169\.254 désigne une adresse privée ou locale/],
      ['file:///etc/passwd', 400, /^URL refusée : seuls http et https sont acceptés \(pas file\)\.$/],
      ['ftp://example.com/x.zip', 400, /pas ftp/],
      ['pas une url', 400, /^URL invalide/],
      [`${base}/big.zip`, 413, /^Archive trop volumineuse \(4 Mo maximum\)\.$/],
      [`${base}/slow.zip`, 504, /^Téléchargement de l'URL trop long \(plus de 2 s\)\.$/],
      [`${base}/missing.zip`, 502, /le serveur a répondu 404/],
    ] as const) {
      const refused = await post({ source_url: url, target_month: '2023-06' });
      assert.equal(refused.status, status, `${url}: ${refused.text}`);
      assert.match(refused.body.detail, detail, url);
    }
    // Without the allow-list, the local server itself is refused, by address and by name (every address a name resolves to is checked).
    const strict = { maxBytes: MB, timeoutMs: 1000, maxRedirects: 1, allow: allowList([]) };
    await assert.rejects(fetchSource(`${base}/output.zip`, strict), (err: unknown) => err instanceof HttpError && err.status === 400);
    await assert.rejects(fetchSource(`http://localhost:${new URL(base).port}/output.zip`, strict), (err: unknown) => err instanceof HttpError && /^URL refusée : localhost désigne une adresse privée ou locale/.test(err.message));
  });

  it('classifies addresses: private, loopback, link-local, mapped and translated forms refused; public ones and the allow-list let through', () => {
    const allow = allowList(['127.0.0.1/32', '10.20.0.0/16']);
    const none = allowList([]);
    const cases: [string, boolean, boolean][] = [
      ['8.8.8.8', true, true], ['1.1.1.1', true, true], ['2606:4700::1111', true, true], ['::ffff:8.8.8.8', true, true],
      ['127.0.0.1', true, false], ['::ffff:127.0.0.1', true, false], ['::ffff:7f00:1', true, false], ['10.20.3.4', true, false], ['10.21.0.1', false, false],
      ['::1', false, false], ['0.0.0.0', false, false], ['169.254.169.254', false, false], ['172.16.5.5', false, false], ['192.168.0.1', false, false],
      ['100.64.0.1', false, false], ['224.0.0.1', false, false], ['fe80::1', false, false], ['fd00::1', false, false], ['64:ff9b::a00:1', false, false], ['ff02::1', false, false],
    ];
    for (const [address, allowed, strict] of cases) {
      assert.equal(addressAllowed(address, allow), allowed, `${address} with the allow-list`);
      assert.equal(addressAllowed(address, none), strict, `${address} without it`);
    }
    assert.throws(() => allowList(['10.0.0.0/33']), /IMPORT_URL_ALLOW/);
    assert.throws(() => allowList(['intranet']), /IMPORT_URL_ALLOW/);
  });

  it('refuses bad forms with the console sentences', async () => {
    const zip = importArchive([{ name: 'README.txt', data: 'x' }]);
    for (const [fields, archive, status, detail] of [
      [{}, undefined, 400, 'Fournis un ZIP (fichier) ou une URL.'],
      [{ source_url: `${base}/output.zip` }, zip, 400, 'Fournis un ZIP ou une URL, pas les deux.'],
      [{ target_month: '2023-13' }, zip, 400, 'Mois cible invalide : « 2023-13 » (AAAA-MM).'],
      [{ target_month: '23-01' }, zip, 400, 'Mois cible invalide : « 23-01 » (AAAA-MM).'],
      [{ mode: 'replace' }, zip, 400, 'Mode invalide : « replace » (skip ou overwrite).'],
      [{ dry_run: 'peut-être' }, zip, 400, 'dry_run invalide : « peut-être » (true ou false).'],
      [{}, Buffer.from('not a zip at all'), 400, /^Le fichier n'est pas une archive ZIP lisible/],
      [{}, Buffer.alloc(4 * MB + 10), 413, 'Archive trop volumineuse (4 Mo maximum).'],
    ] as const) {
      const res = await post(fields as Record<string, string>, archive as Buffer | undefined);
      assert.equal(res.status, status, `${JSON.stringify(fields)}: ${res.text}`);
      if (typeof detail === 'string') assert.equal(res.body.detail, detail);
      else assert.match(res.body.detail, detail);
    }
    const json = await t.request('POST', '/api/admin/maintenance/import-output', { key: admin.key, json: { source_url: `${base}/output.zip` } });
    assert.deepEqual([json.status, json.body.detail], [415, 'Type de contenu non pris en charge (application/json) : envoie le corps en formulaire multipart (multipart/form-data) ou formulaire (application/x-www-form-urlencoded).']);
    const tooMany = importArchive(Array.from({ length: 101 }, (_, i) => ({ name: `f${i}.txt`, data: 'x' })));
    const many = await post({}, tooMany);
    assert.deepEqual([many.status, many.body.detail], [400, 'Archive refusée : plus de 100 entrées.']);
  });
});
