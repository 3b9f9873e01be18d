// `bt admin` when the server refuses: every status with its sentence, French or English, cut to a
// sentence when the server sends megabytes, the retry delay of a 429 or a 503; an upload read from
// its file as it goes out, never whole (src/admin/client.ts, docs/cli.md "bt admin").
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { truncate } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bin, bt, tempDir } from './helpers.js';

/** What the server answers next: a status, a body, headers. */
let answer: { status: number; body: string; headers?: Record<string, string> } = { status: 200, body: '{}' };
/** Called when an upload's body has arrived whole, before the answer (the memory probe). */
let onUploaded: (() => void) | null = null;
const keys: string[] = [];

function behave(req: IncomingMessage, res: ServerResponse): void {
  keys.push(String(req.headers['x-api-key']));
  req.on('data', () => undefined);
  req.on('end', () => {
    if (req.method === 'POST' && onUploaded) onUploaded();
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(answer.body);
  });
}

const server = createServer(behave);
let url = '';
const work = tempDir('bt-cli-admin-errors-');

before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  writeFileSync(join(work.dir, 'month.zip'), Buffer.alloc(10_000, 1));
});
after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  work.remove();
});

const admin = (args: string[]) => bt(['admin', ...args], { cwd: work.dir, env: { BT_API_URL: url, BT_API_KEY: 'k' } });
const COMMANDS: string[][] = [['users'], ['credit', 'add', '3'], ['reindex'], ['import-output', 'month.zip', '--month', '2026-01', '--no-progress']];

describe('bt admin when the server refuses', () => {
  it('each status is exit 1 with the server\'s sentence, French or English, for every kind of call (an upload included)', async () => {
    const cases: [number, string][] = [
      [401, 'Clé API invalide ou expirée.'],
      [403, 'Accès réservé aux administrateurs.'],
      [404, 'Utilisateur introuvable.'],
      [409, 'Une maintenance de la bibliothèque (import ou réindexation) est déjà en cours : réessaie quand elle sera terminée.'],
      [413, 'Archive trop volumineuse (100 Mo maximum).'],
      [404, 'Not Found'],
      [500, 'Internal error, see the log'],
    ];
    for (const [status, detail] of cases) {
      answer = { status, body: JSON.stringify({ detail }) };
      for (const args of COMMANDS) assert.deepEqual(await admin(args), { code: 1, stdout: '', stderr: `bt: HTTP ${status}: ${detail}\n` }, `${status} ${args.join(' ')}`);
    }
  });

  it('a 429 or a 503 says when to retry (Retry-After in seconds or as a date); no detail: the status text', async () => {
    answer = { status: 429, body: '{"detail": "Trop de requêtes : réessaie dans un instant."}', headers: { 'retry-after': '30' } };
    for (const args of COMMANDS) assert.equal((await admin(args)).stderr, 'bt: HTTP 429: Trop de requêtes : réessaie dans un instant. (retry in 30 s)\n', args.join(' '));
    answer = { status: 503, body: '', headers: { 'retry-after': new Date(Date.now() + 120_500).toUTCString() } };
    for (const args of COMMANDS) assert.match((await admin(args)).stderr, /^bt: HTTP 503: Service Unavailable \(retry in 1[12]\d s\)\n$/, args.join(' '));
    answer = { status: 502, body: '<html><body>Bad gateway</body></html>', headers: { 'content-type': 'text/html' } };
    for (const args of COMMANDS) assert.equal((await admin(args)).stderr, 'bt: HTTP 502: Bad Gateway\n', args.join(' '));
  });

  it('a detail given as a list of messages (another framework\'s form) prints its messages', async () => {
    answer = { status: 422, body: JSON.stringify({ detail: [{ loc: ['body', 'user_id'], msg: 'field required' }, { msg: 'amount too big' }] }) };
    for (const args of COMMANDS) assert.equal((await admin(args)).stderr, 'bt: HTTP 422: field required; amount too big\n', args.join(' '));
  });

  it('a refusal of megabytes prints one bounded line, never the whole body', async () => {
    answer = { status: 400, body: JSON.stringify({ detail: `Champ invalide ${'x'.repeat(20_000)}` }) };
    for (const args of COMMANDS) {
      const run = await admin(args);
      assert.equal(run.code, 1);
      assert.equal(run.stderr, `bt: HTTP 400: Champ invalide ${'x'.repeat(500 - 16)}…\n`, args.join(' '));
    }
    // Past what is read of an error answer (64 KiB), the JSON is cut: the status text says it.
    answer = { status: 500, body: JSON.stringify({ detail: 'y'.repeat(5 << 20) }) };
    for (const args of COMMANDS) assert.deepEqual(await admin(args), { code: 1, stdout: '', stderr: 'bt: HTTP 500: Internal Server Error\n' }, args.join(' '));
  });

  it('an upload is read from its file as it goes out: the archive is never held whole in memory', { skip: process.platform !== 'linux' && 'reads /proc' }, async () => {
    const big = join(work.dir, 'big.zip');
    writeFileSync(big, '');
    await truncate(big, 400 << 20);
    answer = { status: 400, body: '{"detail": "Archive invalide : ce n’est pas un ZIP."}' };
    const child = spawn(process.execPath, [bin, 'admin', 'import-output', 'big.zip', '--month', '2026-01', '--no-progress'], { cwd: work.dir, env: { ...process.env, BT_API_URL: url, BT_API_KEY: 'k' } });
    let peakKb = 0;
    // Read once the whole archive has arrived, while bt waits for the answer: its peak so far.
    onUploaded = () => {
      peakKb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]);
    };
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const code = await new Promise((r) => child.on('close', r));
    onUploaded = null;
    assert.deepEqual([code, stderr], [1, 'bt: HTTP 400: Archive invalide : ce n’est pas un ZIP.\n']);
    assert.ok(peakKb > 0 && peakKb < 200 * 1024, `bt's peak memory while sending 400 MiB: ${Math.round(peakKb / 1024)} MiB`);
  });

  it('an upload redirected is said like any call\'s redirect, and the key goes nowhere else', async () => {
    keys.length = 0;
    answer = { status: 307, body: '', headers: { location: 'http://elsewhere.example/api/admin/maintenance/import-output' } };
    const run = await admin(['import-output', 'month.zip', '--month', '2026-01', '--no-progress']);
    assert.deepEqual(run, {
      code: 1, stdout: '',
      stderr: `bt: the server at ${url} answered /maintenance/import-output with a redirect (HTTP 307 to http://elsewhere.example/api/admin/maintenance/import-output): bt does not send the admin key to another address; give the server's own address as --api\n`,
    });
    assert.deepEqual(keys, ['k']);
  });

  it('an import that overwrites months needs --yes, and nothing is sent without it; a dry run needs none', async () => {
    keys.length = 0;
    for (const source of [['month.zip'], ['--url', 'https://data.example.com/output.zip']]) {
      const run = await admin(['import-output', ...source, '--month', '2026-01', '--mode', 'overwrite']);
      assert.deepEqual(run, { code: 2, stdout: '', stderr: 'bt: overwriting the library months the archive holds cannot be undone: add --yes to confirm\n' });
    }
    assert.deepEqual(keys, [], 'no call was made');
    answer = { status: 200, body: JSON.stringify({ status: 'success', target_month: '2026-01', mode: 'overwrite', dry_run: true, added: [], skipped: [], overwritten: [], errors: [], counts: { added: 0, skipped: 0, overwritten: 0, errors: 0 } }) };
    const dry = await admin(['import-output', 'month.zip', '--month', '2026-01', '--mode', 'overwrite', '--dry-run', '--no-progress']);
    assert.equal(dry.code, 0, dry.stderr);
    const confirmed = await admin(['import-output', 'month.zip', '--month', '2026-01', '--mode', 'overwrite', '--yes', '--no-progress']);
    assert.equal(confirmed.code, 0, confirmed.stderr);
    assert.equal(keys.length, 2);
  });

  it('an address with a query or a fragment is a usage error, before any call', async () => {
    keys.length = 0;
    for (const api of [`${url}/?tenant=1`, `${url}/#top`, `${url}?`]) {
      const run = await bt(['admin', 'users', '--api', api, '--key', 'k'], { cwd: work.dir });
      assert.deepEqual(run, { code: 2, stdout: '', stderr: `bt: invalid --api: ${JSON.stringify(api)} has a query or a fragment (expected the server's address alone, such as http://127.0.0.1:8080)\n` }, api);
    }
    assert.deepEqual(keys, []);
  });
});
