import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { register, useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { makeAdmin } from './support/work.js';

const outside = mkdtempSync(join(tmpdir(), 'bt-disk-outside-'));
const project = mkdtempSync(join(tmpdir(), 'bt-disk-project-'));
const t = useTestApp({ config: { projectRoots: [{ key: 'fixtures', label: 'Données de départ du projet (fixtures)', path: project }] } });
const SECRET = 'SECRET-OUTSIDE-THE-ROOT';
let admin: { key: string };

after(() => {
  rmSync(outside, { recursive: true, force: true });
  rmSync(project, { recursive: true, force: true });
});

describe(`admin disk explorer, read-only (${TEST_DIALECT})`, () => {
  before(async () => {
    admin = await makeAdmin(t);
    writeFileSync(join(outside, 'secret.txt'), SECRET);
    const root = t.storageDir;
    mkdirSync(join(root, 'results/7/EURUSD_run'), { recursive: true });
    writeFileSync(join(root, 'results/7/EURUSD_run/EURUSD_run.xlsx'), 'PK-fake-workbook');
    mkdirSync(join(root, 'invoices/2026'), { recursive: true });
    writeFileSync(join(root, 'invoices/2026/F-2026-000001.pdf'), '%PDF-1.7 facture');
    for (let i = 0; i < 30; i++) writeFileSync(join(root, `note-${String(i).padStart(2, '0')}.txt`), `note ${i}`);
    // Links: one out of the root (never shown, never opened), one inside it (shown as what it leads to).
    symlinkSync(outside, join(root, 'escape'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'secret-link.txt'));
    symlinkSync(join(root, 'invoices'), join(root, 'alias'));
    writeFileSync(join(project, 'README.md'), '# fixtures');
  });

  const get = (path: string, key = admin.key) => t.request('GET', path, { key });

  it('lists the roots: the file storage, the library and the project', async () => {
    const res = await get('/api/admin/fs/roots');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.roots.map((r: Record<string, string>) => [r.key, r.scope]), [['files', 'disk'], ['library', 'disk'], ['fixtures', 'project']]);
    assert.ok(res.body.roots.every((r: { path: string; label: string }) => r.path.startsWith('/') && r.label));
  });

  it('walks a root: folders first, depth, paging, total; links leading out are not listed', async () => {
    const top = await get('/api/admin/fs/tree?root=files');
    assert.equal(top.status, 200, top.text);
    assert.deepEqual([top.body.root, top.body.path, top.body.total, top.body.depth, top.body.limit], ['files', '', 33, 0, 500]);
    const names = top.body.entries.map((e: { name: string }) => e.name);
    assert.deepEqual(names.slice(0, 3), ['alias', 'invoices', 'results'], 'folders first, by name');
    assert.ok(!names.includes('escape') && !names.includes('secret-link.txt'));
    const note = top.body.entries.find((e: { name: string }) => e.name === 'note-00.txt');
    assert.deepEqual([note.type, note.rel_path, note.bytes, note.ext, note.scope], ['file', 'note-00.txt', 6, 'txt', 'disk']);
    assert.ok(!Number.isNaN(Date.parse(note.mtime_iso)));

    const deep = await get('/api/admin/fs/tree?root=files&path=results&depth=5');
    assert.deepEqual(deep.body.entries.map((e: { rel_path: string; depth: number }) => [e.rel_path, e.depth]), [
      ['results/7', 0], ['results/7/EURUSD_run', 1], ['results/7/EURUSD_run/EURUSD_run.xlsx', 2],
    ]);
    const page = await get('/api/admin/fs/tree?root=files&limit=10&offset=30');
    assert.deepEqual([page.body.total, page.body.entries.length, page.body.entries[0].name], [33, 3, 'note-27.txt']);
    const viaLink = await get('/api/admin/fs/tree?root=files&path=alias&depth=1');
    assert.deepEqual(viaLink.body.entries.map((e: { rel_path: string }) => e.rel_path), ['alias/2026', 'alias/2026/F-2026-000001.pdf']);
    const project = await get('/api/admin/fs/tree?root=fixtures');
    assert.deepEqual(project.body.entries.map((e: { name: string; scope: string }) => [e.name, e.scope]), [['README.md', 'project']]);
  });

  it('downloads a file (header key, or the apiKey of a plain link); never a folder', async () => {
    const res = await fetch(`${t.url}/api/admin/fs/download?root=files&path=invoices/2026/F-2026-000001.pdf`, { headers: { 'x-api-key': admin.key } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-disposition'), 'attachment; filename="F-2026-000001.pdf"');
    assert.equal(await res.text(), '%PDF-1.7 facture');
    const link = await fetch(`${t.url}/api/admin/fs/download?root=files&path=note-01.txt&apiKey=${admin.key}`);
    assert.deepEqual([link.status, await link.text()], [200, 'note 1']);
    const user = await register(t);
    assert.equal((await fetch(`${t.url}/api/admin/fs/download?root=files&path=note-01.txt&apiKey=${user.key}`)).status, 403);
    assert.equal((await fetch(`${t.url}/api/admin/fs/download?root=files&path=note-01.txt`)).status, 401);
    assert.equal((await fetch(`${t.url}/api/admin/fs/tree?root=files&apiKey=${admin.key}`)).status, 401, 'a key in the address only opens download links');
    const folder = await get('/api/admin/fs/download?root=files&path=results');
    assert.deepEqual([folder.status, folder.body.detail], [400, "Ce chemin n'est pas un fichier."]);
    const file = await get('/api/admin/fs/tree?root=files&path=note-01.txt');
    assert.deepEqual([file.status, file.body.detail], [400, "Ce chemin n'est pas un dossier."]);
  });

  it('a file replaced between its stat and its opening is sent whole with its own length', async () => {
    const storage = t.app.deps.storage;
    const path = join(t.storageDir, 'invoices/2026/F-2026-000002.pdf');
    writeFileSync(path, 'old');
    const stat = storage.stat.bind(storage);
    // An import or a log writer lands between the explorer's look at the path and its read.
    storage.stat = async (rel: string) => {
      const entry = await stat(rel);
      if (rel === 'invoices/2026/F-2026-000002.pdf') writeFileSync(path, 'the new, longer content');
      return entry;
    };
    try {
      for (const url of ['/api/admin/fs/download?root=files&path=invoices/2026/F-2026-000002.pdf', '/api/admin/factures_download?rel=2026/F-2026-000002.pdf']) {
        writeFileSync(path, 'old');
        const res = await fetch(`${t.url}${url}`, { headers: { 'x-api-key': admin.key } });
        assert.equal(res.status, 200, url);
        // The length was the stat's (3 bytes) while the stream sent 23: a cut or garbled download.
        assert.deepEqual([res.headers.get('content-length'), await res.text()], ['23', 'the new, longer content'], url);
      }
    } finally {
      storage.stat = stat;
    }
  });

  it('nothing outside a root: 33 traversal attempts, in several encodings, on tree and download', async () => {
    const attempts = [
      '..', '../', '../..', '../secret.txt', './../secret.txt', 'results/../../secret.txt', 'results/7/../../..', '/etc/passwd', '/',
      '//etc/passwd', 'C:/Windows/win.ini', 'c:\\boot.ini', '..\\secret.txt', 'results\\..\\..\\x', 'escape/secret.txt', 'escape', 'secret-link.txt',
      'results/%2e%2e/%2e%2e/secret.txt', '%2e%2e/%2e%2e', '..%2fsecret.txt', '%252e%252e/secret.txt', 'results/\u0000/x', 'a\u0001b', 'results/..',
      '....//....//secret.txt', '.../secret.txt', 'alias/../../escape/secret.txt', 'alias/../escape', '~/secret.txt', '${HOME}', 'results/7/EURUSD_run/../../../../escape',
      `${outside}/secret.txt`, 'escape/../escape/secret.txt',
    ];
    assert.equal(attempts.length, 33);
    for (const path of attempts) {
      for (const route of ['tree', 'download']) {
        for (const encoded of [encodeURIComponent(path), encodeURIComponent(encodeURIComponent(path))]) {
          const res = await get(`/api/admin/fs/${route}?root=files&path=${encoded}`);
          assert.ok(res.status === 400 || res.status === 404, `${route} ${JSON.stringify(path)} (${encoded}): ${res.status} ${res.text.slice(0, 200)}`);
          assert.ok(!res.text.includes(SECRET), `${route} ${path}`);
          assert.equal(typeof res.body?.detail, 'string', `${route} ${path}`);
        }
      }
    }
    for (const path of ['../secret.txt', '/etc/passwd', 'a\u0001b']) {
      const res = await get(`/api/admin/fs/download?root=files&path=${encodeURIComponent(path)}`);
      assert.deepEqual([res.status, res.body.detail], [400, 'Chemin de fichier invalide.'], path);
    }
    for (const path of ['escape/secret.txt', 'secret-link.txt']) {
      const res = await get(`/api/admin/fs/download?root=files&path=${encodeURIComponent(path)}`);
      assert.deepEqual([res.status, res.body.detail], [404, 'Fichier ou dossier introuvable.'], path);
    }
  });

  it('refuses bad parameters with a French 400', async () => {
    for (const [query, detail] of [
      ['', 'Renseigne la racine (root).'],
      ['root=etc', 'Racine inconnue : « etc » (files, library, fixtures).'],
      ['root=files&depth=6', 'Paramètres invalides : depth de 0 à 5, limit de 10 à 5000, offset ≥ 0.'],
      ['root=files&depth=-1', 'Paramètres invalides : depth de 0 à 5, limit de 10 à 5000, offset ≥ 0.'],
      ['root=files&limit=9', 'Paramètres invalides : depth de 0 à 5, limit de 10 à 5000, offset ≥ 0.'],
      ['root=files&limit=5001', 'Paramètres invalides : depth de 0 à 5, limit de 10 à 5000, offset ≥ 0.'],
      ['root=files&offset=-1', 'Paramètres invalides : depth de 0 à 5, limit de 10 à 5000, offset ≥ 0.'],
      ['root=files&root=library', 'Champ « root » : une seule valeur attendue (pas une liste ni un objet).'],
    ] as const) {
      const res = await get(`/api/admin/fs/tree?${query}`);
      assert.deepEqual([res.status, res.body.detail], [400, detail], query);
    }
    assert.deepEqual((await get('/api/admin/fs/download?root=files')).body.detail, 'Renseigne le chemin du fichier (path).');
    assert.equal((await get('/api/admin/fs/tree?root=files&path=nothing/here')).status, 404);
  });
});
