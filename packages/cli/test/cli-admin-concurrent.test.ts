// `bt admin` against a real server when admins act at once or give up halfway: two reindexes or
// imports together (one runs, the other is the server's 409 or runs after), an upload interrupted
// halfway (nothing of it lands, the library is free for the next one). docs/admin.md "Import rules".
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bin, bt, tempDir, type Run } from './helpers.js';
import { importArchive, startAdminServer, type AdminServer } from './admin-server.js';
import { libraryCsv } from '../../server/test/support/import-archives.js';

let server: AdminServer;
const work = tempDir('bt-cli-admin-concurrent-');

before(async () => {
  server = await startAdminServer({ IMPORT_MAX_MB: '200' });
});
after(async () => {
  await server?.stop();
  work.remove();
});

const env = () => ({ BT_API_URL: server.url, BT_API_KEY: server.adminKey });
const admin = (args: string[]) => bt(['admin', ...args], { cwd: work.dir, env: env() });
const BUSY = 'bt: HTTP 409: Une maintenance de la bibliothèque (import ou réindexation) est déjà en cours : réessaie quand elle sera terminée.\n';

/** Exit 0, or exit 1 with the server's busy sentence and nothing on stdout. */
function doneOrBusy(run: Run, what: string): 'done' | 'busy' {
  if (run.code === 0) return 'done';
  assert.deepEqual(run, { code: 1, stdout: '', stderr: BUSY }, what);
  return 'busy';
}

describe('bt admin, two admins at once, and an upload given up', () => {
  it('two reindexes at once: each is done or told the library is busy, never an error of its own', async () => {
    const runs = await Promise.all([admin(['reindex']), admin(['reindex']), admin(['reindex', '--json'])]);
    const outcomes = runs.map((r, i) => doneOrBusy(r, `reindex ${i}`));
    assert.ok(outcomes.includes('done'), outcomes.join(' '));
    assert.equal(doneOrBusy(await admin(['reindex']), 'reindex after'), 'done', 'the library is free once they are over');
  });

  it('an import killed halfway through its upload leaves nothing: no month written, the next import goes through', async () => {
    const library = join(server.dataDir, 'library');
    const march = libraryCsv(library, 'EURUSD', 'M15', '2023-03');
    // A real month first, then 120 MB of padding: the upload lasts long enough to be stopped.
    writeFileSync(join(work.dir, 'slow.zip'), Buffer.concat([importArchive([{ name: 'NZDJPY_M15_2023-03.csv', data: march }]), Buffer.alloc(120 << 20)]));
    const child = spawn(process.execPath, [bin, 'admin', 'import-output', 'slow.zip', '--month', '2023-03'], { cwd: work.dir, env: { ...process.env, ...env() } });
    let stderr = '';
    await new Promise<void>((resolve) => {
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
        // Past the first quarter: the upload is under way.
        if (/ 25% /.test(stderr) && !child.killed) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('close', () => resolve());
    });
    await new Promise((r) => child.on('close', r));
    assert.match(stderr, /uploading slow\.zip 25% /);
    assert.ok(!existsSync(join(library, 'NZDJPY')), 'nothing of the archive landed');

    writeFileSync(join(work.dir, 'good.zip'), importArchive([{ name: 'NZDJPY_M15_2023-03.csv', data: march }]));
    let run = await admin(['import-output', 'good.zip', '--month', '2023-03', '--no-progress']);
    // The server notices the dropped connection when its read fails: a moment at most.
    for (let i = 0; i < 20 && run.code === 1 && run.stderr === BUSY; i++) {
      await new Promise((r) => setTimeout(r, 250));
      run = await admin(['import-output', 'good.zip', '--month', '2023-03', '--no-progress']);
    }
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(readdirSync(join(library, 'NZDJPY', 'M15')).filter((f) => f.endsWith('.csv')), ['NZDJPY_M15_2023-03.csv']);
  });
});
