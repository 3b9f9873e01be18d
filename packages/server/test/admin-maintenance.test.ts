import assert from 'node:assert/strict';
import { mkdirSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { register, useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { makeAdmin } from './support/work.js';

const t = useTestApp({ library: true });
let admin: { key: string };
const get = (path: string) => t.request('GET', path, { key: admin.key });
const post = (path: string, json: unknown = {}) => t.request('POST', path, { key: admin.key, json });

describe(`admin maintenance (${TEST_DIALECT})`, () => {
  before(async () => {
    admin = await makeAdmin(t);
  });

  it('reindex-output rebuilds the index from the files, with progress in the log; a file that does not read is reported', async () => {
    const indexed = await t.db.models.Dataset.count();
    const res = await post('/api/admin/csv/reindex-output');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.status, res.body.result.ok, res.body.result.datasets, res.body.result.files, res.body.result.errors], ['success', true, indexed, indexed, []]);
    assert.equal(res.body.result.root, t.libraryDir.replace(/\/$/, ''));
    assert.ok(t.logs.some((l) => new RegExp(`^admin: reindex ${indexed}/${indexed} files$`).test(l)), 'progress lines in the log');
    assert.ok(t.logs.filter((l) => /^admin: reindex \d+\/\d+ files$/.test(l)).length >= 5);

    // A month removed from the index comes back; a file that no longer reads is reported and left out.
    const row = await t.db.models.Dataset.findOne({ where: { path: 'EURUSD/H1/EURUSD_H1_2017-05.csv' } });
    await row!.destroy();
    writeFileSync(join(t.libraryDir, 'EURUSD/H4/EURUSD_H4_2017-06.csv'), 'Datetime,Open\nnot,a,candle\n');
    unlinkSync(join(t.libraryDir, 'EURUSD/H4/EURUSD_H4_2017-06.arrow'));
    const partial = await post('/api/admin/csv/reindex-output');
    assert.equal(partial.status, 200);
    assert.deepEqual([partial.body.status, partial.body.detail, partial.body.result.ok], ['partial', 'Indexation partielle/échouée', false]);
    assert.deepEqual(partial.body.result.errors.map((e: { path: string }) => e.path), ['EURUSD/H4/EURUSD_H4_2017-06.csv']);
    // In French with its line and column, as an upload's problems (it was core's English).
    assert.match(partial.body.result.errors[0].detail, /^Fichier invalide : ligne 1, colonne High : la colonne obligatoire High est absente/);
    assert.equal(partial.body.result.datasets, indexed - 1);
    assert.ok(await t.db.models.Dataset.findOne({ where: { path: 'EURUSD/H1/EURUSD_H1_2017-05.csv' } }));
    assert.equal(await t.db.models.Dataset.findOne({ where: { path: 'EURUSD/H4/EURUSD_H4_2017-06.csv' } }), null);
  });

  it('email re-creation counters: list, reset one address, reset all', async () => {
    const { EmailRecreation } = t.db.models;
    await EmailRecreation.bulkCreate([
      { email: 'a@example.com', deletions: 3, recreations: 3 },
      { email: 'b@example.com', deletions: 1, recreations: 0 },
      { email: 'c@example.com', deletions: 2, recreations: 1 },
    ]);
    const user = await register(t);
    assert.equal((await t.request('POST', '/api/user/delete_account', { key: user.key, json: { current_password: user.password } })).status, 200);
    const list = await get('/api/admin/email-recreate');
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.counts.map((c: Record<string, unknown>) => [c.email, c.deletions, c.recreations, c.blocked]), [
      ['a@example.com', 3, 3, true],
      ['c@example.com', 2, 1, false],
      ['b@example.com', 1, 0, false],
      [user.email, 1, 0, false],
    ]);
    const one = await post('/api/admin/reset-email-recreate', { email: ' A@Example.com ' });
    assert.deepEqual([one.status, one.body.left, one.body.email], [200, 3, 'a@example.com']);
    const again = await post('/api/admin/reset-email-recreate', { email: 'a@example.com' });
    assert.deepEqual([again.status, again.body.detail], [404, 'Aucun compteur de recréation pour cette adresse.']);
    const bad = await post('/api/admin/reset-email-recreate', { email: 'pas-une-adresse' });
    assert.deepEqual([bad.status, bad.body.detail], [400, 'Adresse e-mail invalide.']);
    const list2 = await post('/api/admin/reset-email-recreate', { email: ['a@example.com'] });
    assert.equal(list2.status, 400);
    const all = await post('/api/admin/reset-email-recreate', {});
    assert.deepEqual([all.status, all.body.left, all.body.removed], [200, 0, 3]);
    assert.deepEqual((await get('/api/admin/email-recreate')).body.counts, []);
  });

  it('billing files: info, list, download (header or plain link), delete; nothing outside the invoices area', async () => {
    const area = join(t.storageDir, 'invoices');
    mkdirSync(join(area, '2025'), { recursive: true });
    mkdirSync(join(area, '2026'), { recursive: true });
    writeFileSync(join(area, '2025/F-2025-000009.pdf'), '%PDF-1.7 neuf');
    writeFileSync(join(area, '2026/F-2026-000001.pdf'), '%PDF-1.7 un');
    writeFileSync(join(t.storageDir, 'secret.txt'), 'SECRET');
    symlinkSync(join(t.storageDir, 'secret.txt'), join(area, 'lien.pdf'));
    const info = await get('/api/admin/factures_info');
    assert.deepEqual(info.body, { count: 3, bytes: 13 + 11 + 6 });
    const list = await get('/api/admin/factures_list');
    assert.deepEqual(list.body.items.map((i: { rel: string }) => i.rel).sort(), ['2025/F-2025-000009.pdf', '2026/F-2026-000001.pdf', 'lien.pdf']);
    assert.ok(list.body.items.every((i: Record<string, unknown>) => typeof i.name === 'string' && typeof i.bytes === 'number' && !Number.isNaN(Date.parse(String(i.mtime)))));

    const res = await fetch(`${t.url}/api/admin/factures_download?rel=2026/F-2026-000001.pdf&apiKey=${admin.key}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/pdf');
    assert.equal(res.headers.get('content-disposition'), 'attachment; filename="F-2026-000001.pdf"');
    assert.equal(await res.text(), '%PDF-1.7 un');
    const user = await register(t);
    assert.equal((await fetch(`${t.url}/api/admin/factures_download?rel=2026/F-2026-000001.pdf&apiKey=${user.key}`)).status, 403);

    for (const rel of ['../secret.txt', '../../etc/passwd', '/etc/passwd', '2026/../../secret.txt', '..\\secret.txt', 'a\u0000b']) {
      for (const route of ['factures_download', 'factures_delete']) {
        const r = await t.request(route === 'factures_delete' ? 'POST' : 'GET', `/api/admin/${route}?rel=${encodeURIComponent(rel)}`, { key: admin.key, ...(route === 'factures_delete' ? { json: {} } : {}) });
        // A NUL is refused by the input helpers before the storage's path guard (which refuses it too: paths.test.ts).
        const detail = rel.includes('\u0000') ? 'Champ « rel » : caractère nul (U+0000) refusé.' : 'Chemin de fichier invalide.';
        assert.deepEqual([r.status, r.body?.detail], [400, detail], `${route} ${rel}`);
        assert.ok(!r.text.includes('SECRET'));
      }
    }
    assert.equal((await get('/api/admin/factures_download?rel=2026')).status, 404, 'a folder is not a file');
    assert.equal((await get('/api/admin/factures_download?rel=2026/none.pdf')).status, 404);
    assert.deepEqual([(await get('/api/admin/factures_download')).status, (await get('/api/admin/factures_download')).body.detail], [400, 'Renseigne le fichier (rel).']);

    const deleted = await t.request('POST', '/api/admin/factures_delete?rel=2025/F-2025-000009.pdf', { key: admin.key, json: { rel: '2025/F-2025-000009.pdf' } });
    assert.deepEqual([deleted.status, deleted.body.detail], [200, 'Fichier supprimé (la facture reste enregistrée et peut être redessinée).']);
    assert.ok(!existsSync(join(area, '2025/F-2025-000009.pdf')));
    const byBody = await post('/api/admin/factures_delete', { rel: 'lien.pdf' });
    assert.equal(byBody.status, 200);
    assert.ok(existsSync(join(t.storageDir, 'secret.txt')), 'deleting a link removes the link, never its target');
    assert.equal((await post('/api/admin/factures_delete', { rel: 'lien.pdf' })).status, 404);
    assert.deepEqual((await get('/api/admin/factures_info')).body, { count: 1, bytes: 11 });
    rmSync(join(t.storageDir, 'secret.txt'));
  });

  it('billing files are listed a page at a time, with their count: limit, offset, newest first', async () => {
    const area = join(t.storageDir, 'invoices', '2027');
    mkdirSync(area, { recursive: true });
    const names = Array.from({ length: 7 }, (_, i) => `F-2027-00000${i + 1}.pdf`);
    names.forEach((name, i) => {
      writeFileSync(join(area, name), '%PDF');
      utimesSync(join(area, name), new Date(Date.UTC(2027, 0, 1 + i)), new Date(Date.UTC(2027, 0, 1 + i)));
    });
    try {
      const all = (await get('/api/admin/factures_list')).body;
      const total = all.total as number;
      assert.equal(total, all.items.length);
      assert.ok(total >= 7);
      const first = await get('/api/admin/factures_list?limit=3');
      assert.deepEqual([first.body.items.length, first.body.total, first.body.limit, first.body.offset], [3, total, 3, 0]);
      const second = await get('/api/admin/factures_list?limit=3&offset=3');
      const rels = [...first.body.items, ...second.body.items].map((i: { rel: string }) => i.rel);
      assert.deepEqual(rels, all.items.slice(0, 6).map((i: { rel: string }) => i.rel), 'consecutive pages neither overlap nor skip');
      assert.equal(rels[0], '2027/F-2027-000007.pdf', 'newest first');
      assert.deepEqual((await get(`/api/admin/factures_list?offset=${total}`)).body.items, []);
      for (const query of ['limit=0', 'limit=5001', 'limit=abc', 'offset=-1', 'limit=2.5']) {
        const bad = await get(`/api/admin/factures_list?${query}`);
        assert.deepEqual([bad.status, bad.body.detail], [400, 'Pagination invalide : offset ≥ 0, limit de 1 à 5000.'], query);
      }
    } finally {
      rmSync(area, { recursive: true, force: true });
    }
  });
});
