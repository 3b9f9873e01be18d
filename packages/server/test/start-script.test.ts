import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { SQLITE_PASS_ONLY } from './support/db.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

describe('npm start (scripts/start.mjs)', { skip: SQLITE_PASS_ONLY }, () => {
  it('a second start while the port is taken stops at once with one line, before installing and building', async () => {
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', () => r()));
    const port = (holder.address() as AddressInfo).port;
    try {
      const child = spawn(process.execPath, ['scripts/start.mjs'], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (c) => (output += c));
      child.stderr.on('data', (c) => (output += c));
      // Never let a regression rebuild everything on the shared machine: 20 s, then it is killed.
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
      clearTimeout(timer);
      assert.equal(code, 1, output);
      assert.equal(output, `bt: invalid PORT: ${port} is already in use on 127.0.0.1 (another bt server running? stop it or set PORT to a free port)\n`);
    } finally {
      holder.close();
    }
  });
});
