// `bt admin` against a running server: every command, as a table and as --json, and its exit codes.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bt, tempDir, type Run } from './helpers.js';
import { registerUser, startAdminServer, importArchive, type AdminServer } from './admin-server.js';

let server: AdminServer;
let files: Server;
let filesUrl = '';
const work = tempDir('bt-cli-admin-work-');
let user: { id: number; key: string; email: string };

before(async () => {
  server = await startAdminServer({ IMPORT_URL_ALLOW: '127.0.0.1' });
  user = await registerUser(server, `cliadmin${process.pid}`);
  files = createServer((req, res) => {
    if (req.url === '/output.zip') res.writeHead(200).end(readFileSync(join(work.dir, 'url.zip')));
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});
after(async () => {
  files?.closeAllConnections();
  await new Promise((r) => files?.close(r));
  await server?.stop();
  work.remove();
});

/** `bt admin ...` with the server's address and the admin key in the environment. */
const admin = (args: string[], env: Record<string, string | undefined> = {}) =>
  bt(['admin', ...args], { cwd: work.dir, env: { BT_API_URL: server.url, BT_API_KEY: server.adminKey, ...env } });

function ok(run: Run, what: string): Run {
  assert.equal(run.code, 0, `${what}: exit ${run.code}\n${run.stderr}${run.stdout}`);
  return run;
}

function json(run: Run, command: string) {
  ok(run, command);
  const doc = JSON.parse(run.stdout);
  assert.equal(doc.command, `admin ${command}`);
  assert.equal(doc.schema_version, 1);
  return doc;
}

const libraryCsv = (symbol: string, tf: string, month: string) => readFileSync(join(server.dataDir, 'library', symbol, tf, `${symbol}_${tf}_${month}.csv`), 'utf8');

describe('bt admin, over HTTP, against a running server', () => {
  it('users: a table, and JSON', async () => {
    const table = ok(await admin(['users']), 'users');
    assert.match(table.stdout, /^id\s+email\s+username\s+plan\s+credits\s+blocked\s+role\s+last seen \(UTC\)/);
    assert.match(table.stdout, new RegExp(`\\b${user.id}\\s+${user.email.replace('.', '\\.')}\\s+cliadmin\\d+\\s+free\\s+0\\s+no\\s+user`));
    const doc = json(await admin(['users', '--json', '--search', 'cliadmin']), 'users');
    assert.deepEqual(doc.users.map((u: { id: number }) => u.id), [user.id]);
    assert.equal(doc.total, 1);
    // --sort is the server's order: by e-mail the admin (admin@bt.local) comes before the newer cliadmin… account.
    const emails = async (args: string[]) => (json(await admin(['users', '--json', ...args]), 'users').users as { email: string }[]).map((u) => u.email);
    assert.deepEqual(await emails(['--sort', 'email']), ['admin@bt.local', user.email]);
    assert.deepEqual(await emails(['--sort', 'newest']), [user.email, 'admin@bt.local']);
    assert.deepEqual(await emails(['--sort', 'email', '--limit', '1', '--offset', '1']), [user.email], 'sorted before the page is cut');
    const bad = await admin(['users', '--sort', 'oldest']);
    assert.deepEqual([bad.code, bad.stderr], [2, "bt: option '--sort <order>' argument 'oldest' is invalid. Allowed choices are newest, email, username, credits.\n(run 'bt help' or add --help for usage)\n"]);
  });

  it('credit add|remove: through the ledger, never below zero', async () => {
    assert.match(ok(await admin(['credit', 'add', String(user.id), '--amount', '3']), 'add').stdout, new RegExp(`^added 3 credits to user ${user.id}: balance 3\\n$`));
    assert.equal(json(await admin(['credit', 'remove', String(user.id), '--json']), 'credit remove').credits, 2);
    const tooMany = await admin(['credit', 'remove', String(user.id), '--amount', '9']);
    assert.equal(tooMany.code, 1);
    assert.equal(tooMany.stderr, 'bt: HTTP 409: Impossible de retirer 9 crédit(s) : le solde est de 2 (il ne descend jamais sous zéro).\n');
    for (const args of [['credit', 'give', '1'], ['credit', 'add', 'abc'], ['credit', 'add', '1', '--amount', '0'], ['credit', 'add', '1', '--amount', '1001']]) {
      const bad = await admin(args);
      assert.equal(bad.code, 2, args.join(' '));
      assert.match(bad.stderr, /^bt: /);
    }
  });

  it('metrics overview, breakdown, reset, rebuild', async () => {
    const overview = ok(await admin(['metrics', 'overview', '--range', 'all']), 'overview');
    assert.match(overview.stdout, /^overview · all · beginning → \d{4}-\d{2}-\d{2} \(UTC\)\n/);
    assert.match(overview.stdout, /\ntotal_users\s+1\n/);
    assert.match(overview.stdout, /\nnew_users\s+1\n/);
    const doc = json(await admin(['metrics', 'overview', '--json', '--start', '2026-01-01', '--end', '2026-01-31']), 'metrics overview');
    assert.deepEqual([doc.range, doc.start, doc.end], ['custom', '2026-01-01', '2026-01-31']);
    const flow = ok(await admin(['metrics', 'breakdown', 'credits_by_method', '--range', 'all']), 'breakdown');
    assert.match(flow.stdout, /method\s+source\s+count\s+credits\n/);
    assert.match(flow.stdout, /\nadmin\s+offert\s+1\s+3\n/);
    const heat = ok(await admin(['metrics', 'breakdown', 'heatmap']), 'heatmap');
    assert.match(heat.stdout, /\nLun(\s+\d+){24}\n/);
    assert.equal(json(await admin(['metrics', 'breakdown', 'dau_wau_mau', '--json']), 'metrics breakdown').items.length, 3);
    for (const args of [['metrics', 'breakdown', 'revenue'], ['metrics', 'overview', '--range', 'year'], ['metrics', 'overview', '--range', 'custom', '--start', '2026-02-01'], ['metrics', 'overview', '--start', '2026-02-02', '--end', '2026-02-01'], ['metrics', 'overview', '--start', '2026-02-30', '--end', '2026-03-01'], ['metrics', 'reset']]) {
      assert.equal((await admin(args)).code, 2, args.join(' '));
    }
    const reset = ok(await admin(['metrics', 'reset', '--yes']), 'reset');
    assert.match(reset.stdout, /^statistics reset: \d+ events deleted\n$/);
    const rebuilt = json(await admin(['metrics', 'rebuild', '--json']), 'metrics rebuild');
    assert.ok(rebuilt.added >= 4, JSON.stringify(rebuilt));
    assert.match(ok(await admin(['metrics', 'rebuild']), 'rebuild').stdout, /: 0 events added, \d+ in all\n$/);
  });

  it('reindex: the library files, and JSON', async () => {
    const text = ok(await admin(['reindex']), 'reindex');
    assert.match(text.stdout, /^reindexed (\d+) of \1 month files under .+library in \d+ ms\n$/);
    const doc = json(await admin(['reindex', '--json']), 'reindex');
    assert.equal(doc.result.ok, true);
    assert.ok(doc.result.datasets > 50);
  });

  it('import-output: a ZIP with an upload progress, a dry run, a URL; exit 1 when an entry is refused', async () => {
    const march = libraryCsv('EURUSD', 'M15', '2023-03');
    writeFileSync(join(work.dir, 'good.zip'), importArchive([{ name: 'AUDJPY_M15_2023-03.csv', data: march }, { name: 'EURUSD_M15_2023-03.csv', data: march }]));
    const dry = ok(await admin(['import-output', 'good.zip', '--month', '2023-03', '--dry-run']), 'dry run');
    assert.match(dry.stdout, /^import 2023-03 \(skip, dry run: nothing written\)\n/);
    assert.match(dry.stdout, /\nwould add\s+AUDJPY_M15_2023-03\.csv\s+AUDJPY\/M15\/AUDJPY_M15_2023-03\.csv\s+\d+\n/);
    assert.match(dry.stderr, /^uploading good\.zip 0% .*\nuploading good\.zip 100% \(\d+\.\d\/\d+\.\d MB\)\n$/s);
    assert.ok(!existsSync(join(server.dataDir, 'library/AUDJPY')));
    const done = json(await admin(['import-output', 'good.zip', '--month', '2023-03', '--json', '--no-progress']), 'import-output');
    assert.deepEqual(done.counts, { added: 1, skipped: 1, overwritten: 0, errors: 0 });
    assert.ok(existsSync(join(server.dataDir, 'library/AUDJPY/M15/AUDJPY_M15_2023-03.csv')));

    writeFileSync(join(work.dir, 'mixed.zip'), importArchive([{ name: 'CADJPY_M15_2023-03.csv', data: march }, { name: '../evil.csv', data: march }]));
    const mixed = await admin(['import-output', 'mixed.zip', '--month', '2023-03', '--mode', 'overwrite', '--yes']);
    assert.equal(mixed.code, 1);
    assert.match(mixed.stdout, /\nadded\s+CADJPY_M15_2023-03\.csv/);
    assert.match(mixed.stdout, /\nrefused\s+\.\.\/evil\.csv\s+Chemin avec « \.\. » refusé \(sortie du dossier\)\./);
    assert.match(mixed.stderr, /bt: 1 entry of the archive refused \(listed above\)\n$/);

    writeFileSync(join(work.dir, 'url.zip'), importArchive([{ name: 'CHFJPY_M15.csv', data: march }]));
    const viaUrl = json(await admin(['import-output', '--url', `${filesUrl}/output.zip`, '--month', '2023-03', '--json']), 'import-output');
    assert.deepEqual(viaUrl.added.map((f: { path: string }) => f.path), ['CHFJPY/M15/CHFJPY_M15_2023-03.csv']);
    const privateUrl = await admin(['import-output', '--url', 'http://10.0.0.1/output.zip', '--month', '2023-03']);
    assert.equal(privateUrl.code, 1);
    assert.match(privateUrl.stderr, /^bt: HTTP 400: URL refusée : 10\.0\.0\.1 désigne une adresse privée ou locale/);

    for (const args of [['import-output'], ['import-output', 'good.zip', '--url', `${filesUrl}/x`], ['import-output', 'good.zip', '--month', '2023-13'], ['import-output', 'good.zip', '--mode', 'replace'], ['import-output', '--url', 'ftp://x/y.zip']]) {
      assert.equal((await admin(args)).code, 2, args.join(' '));
    }
    const missing = await admin(['import-output', 'nothing.zip']);
    assert.deepEqual([missing.code, missing.stderr], [1, 'bt: cannot read nothing.zip: no such file\n']);
  });

  it('email-recreate: counters listed and reset', async () => {
    const doomed = await registerUser(server, `cligone${process.pid}`);
    // The owner's own deletion asks for the current password (registerUser's).
    const deleted = await fetch(`${server.url}/api/user/delete_account`, { method: 'POST', headers: { 'x-api-key': doomed.key, 'content-type': 'application/json' }, body: JSON.stringify({ current_password: 'motdepasse-cli' }) });
    assert.equal(deleted.status, 200);
    const list = ok(await admin(['email-recreate']), 'email-recreate');
    assert.match(list.stdout, new RegExp(`${doomed.email.replace('.', '\\.')}\\s+1\\s+0\\s+no\\n`));
    assert.equal(json(await admin(['email-recreate', 'list', '--json']), 'email-recreate').total, 1);
    assert.deepEqual(json(await admin(['email-recreate', 'list', '--offset', '1', '--json']), 'email-recreate').counts, [], 'the next page');
    assert.match(ok(await admin(['email-recreate', 'list', '--offset', '1']), 'next page').stdout, /^no re-creation counter from 1 \(1 in all\)\n$/);
    assert.equal((await admin(['email-recreate', 'list', '--offset', '-2'])).code, 2);
    assert.equal((await admin(['email-recreate', 'reset'])).code, 2, 'resetting all needs --yes');
    const one = ok(await admin(['email-recreate', 'reset', doomed.email]), 'reset one');
    assert.equal(one.stdout, `counter of ${doomed.email} reset; 0 address(es) still counted\n`);
    const gone = await admin(['email-recreate', 'reset', doomed.email]);
    assert.deepEqual([gone.code, gone.stderr], [1, 'bt: HTTP 404: Aucun compteur de recréation pour cette adresse.\n']);
    assert.equal(json(await admin(['email-recreate', 'reset', '--yes', '--json']), 'email-recreate reset').left, 0);
  });

  it('archive list and restore-all', async () => {
    assert.equal(ok(await admin(['archive', 'list']), 'archive').stdout, 'no archived strategy\n');
    assert.deepEqual(json(await admin(['archive', 'list', '--type', 'gpt', '--json']), 'archive list').items, []);
    assert.equal(ok(await admin(['archive', 'restore-all', '--type', 'import']), 'restore').stdout, '0 archived import entries restored\n');
    assert.equal(json(await admin(['archive', 'restore-all', '--type', 'gpt', '--json']), 'archive restore-all').restored, 0);
    assert.equal((await admin(['archive', 'restore-all'])).code, 2);
    assert.equal((await admin(['archive', 'list', '--type', 'python'])).code, 2);
    assert.deepEqual(json(await admin(['archive', 'list', '--offset', '10', '--json']), 'archive list').items, [], 'past the end');
    const badOffset = await admin(['archive', 'list', '--offset', '-1']);
    assert.deepEqual([badOffset.code, badOffset.stderr], [2, 'bt: invalid --offset: "-1" (expected a whole number from 0 to 9007199254740991)\n']);
  });

  it('invoices list and download', async () => {
    mkdirSync(join(server.dataDir, 'files/invoices/2026'), { recursive: true });
    writeFileSync(join(server.dataDir, 'files/invoices/2026/F-2026-000001.pdf'), '%PDF-1.7 facture');
    const list = ok(await admin(['invoices', 'list']), 'invoices');
    assert.match(list.stdout, /^rel\s+bytes\s+modified \(UTC\)\n2026\/F-2026-000001\.pdf\s+16\s+\d{4}-/);
    assert.match(list.stdout, /\n1 files, 16 bytes\n$/);
    const doc = json(await admin(['invoices', 'list', '--json']), 'invoices list');
    assert.deepEqual([doc.count, doc.items[0].rel], [1, '2026/F-2026-000001.pdf']);
    assert.equal(ok(await admin(['invoices', 'download', '2026/F-2026-000001.pdf']), 'download').stdout, '2026/F-2026-000001.pdf → F-2026-000001.pdf (16 bytes)\n');
    assert.equal(readFileSync(join(work.dir, 'F-2026-000001.pdf'), 'utf8'), '%PDF-1.7 facture');
    assert.equal((await admin(['invoices', 'download', '2026/F-2026-000001.pdf'])).code, 2, 'an existing file needs --force');
    const out = json(await admin(['invoices', 'download', '2026/F-2026-000001.pdf', '-o', 'copy.pdf', '--json']), 'invoices download');
    assert.deepEqual([out.file, out.bytes], ['copy.pdf', 16]);
    // A page at a time: --limit and --offset, the count of all beside.
    for (const n of [2, 3]) writeFileSync(join(server.dataDir, `files/invoices/2026/F-2026-00000${n}.pdf`), '%PDF-1.7 facture');
    const page = ok(await admin(['invoices', 'list', '--limit', '2']), 'invoices page');
    assert.equal(page.stdout.split('\n').filter((l) => l.startsWith('2026/')).length, 2);
    assert.match(page.stdout, /\n2 of 3 files, 48 bytes\n$/);
    const rest = ok(await admin(['invoices', 'list', '--limit', '2', '--offset', '2']), 'invoices next page');
    assert.match(rest.stdout, /\n1 from 2 of 3 files, 48 bytes\n$/);
    assert.deepEqual(json(await admin(['invoices', 'list', '--limit', '1', '--json']), 'invoices list').total, 3);
    for (const bad of [['--limit', '0'], ['--limit', '5001'], ['--limit', '-1'], ['--offset', '1.5']]) assert.equal((await admin(['invoices', 'list', ...bad])).code, 2, bad.join(' '));
    for (const n of [2, 3]) rmSync(join(server.dataDir, `files/invoices/2026/F-2026-00000${n}.pdf`));
    const traversal = await admin(['invoices', 'download', '../../bt.sqlite', '-o', 'x']);
    assert.deepEqual([traversal.code, traversal.stderr], [1, 'bt: HTTP 400: Chemin de fichier invalide.\n']);
  });

  it('user delete and history reset need --yes', async () => {
    assert.equal((await admin(['user', 'delete', String(user.id)])).code, 2);
    assert.equal((await admin(['history', 'reset'])).code, 2);
    assert.match(ok(await admin(['history', 'reset', '--yes']), 'history reset').stdout, /^purchase history reset: \d+ entries hidden/);
    assert.equal(ok(await admin(['user', 'delete', String(user.id), '--yes']), 'delete').stdout, `user ${user.id} deleted (account archived, sessions revoked, ledger kept)\n`);
    const again = await admin(['user', 'delete', String(user.id), '--yes', '--json']);
    assert.deepEqual([again.code, again.stderr], [1, 'bt: HTTP 404: Utilisateur introuvable.\n']);
  });

  it('connection: flags or environment; no address, a bad key, a user key, no server', async () => {
    const noEnv = { BT_API_URL: undefined, BT_API_KEY: undefined };
    const flags = ok(await bt(['admin', 'users', '--api', server.url, '--key', server.adminKey, '--json'], { env: noEnv }), 'flags');
    assert.equal(JSON.parse(flags.stdout).command, 'admin users');
    const noAddress = await bt(['admin', 'users'], { env: noEnv });
    assert.deepEqual([noAddress.code, noAddress.stderr], [2, "bt: the admin commands need the server's address: --api URL or BT_API_URL (e.g. http://127.0.0.1:8080)\n"]);
    assert.equal((await bt(['admin', 'users', '--api', server.url], { env: noEnv })).code, 2);
    assert.equal((await bt(['admin', 'users', '--api', 'ftp://x', '--key', 'k'], { env: noEnv })).code, 2);
    const badKey = await admin(['users'], { BT_API_KEY: 'not-a-key' });
    assert.deepEqual([badKey.code, badKey.stderr], [1, 'bt: HTTP 401: Clé API invalide ou expirée.\n']);
    const someone = await registerUser(server, `clinobody${process.pid}`);
    const userKey = await admin(['metrics', 'overview'], { BT_API_KEY: someone.key });
    assert.deepEqual([userKey.code, userKey.stderr], [1, 'bt: HTTP 403: Accès réservé aux administrateurs.\n']);
    // A port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const down = await admin(['users'], { BT_API_URL: `http://127.0.0.1:${port}` });
    assert.deepEqual([down.code, down.stderr], [1, `bt: cannot reach the server at http://127.0.0.1:${port}: ECONNREFUSED\n`]);
  });
});
