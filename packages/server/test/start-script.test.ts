import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { SQLITE_PASS_ONLY } from './support/db.js';
// @ts-expect-error: a plain .mjs script without types
import { systemSqlite } from '../../../scripts/ensure-install.mjs';

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

  it('an install that fails in a path with spaces ends with the reason (node-gyp cannot build sqlite3 there)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bt install '));
    try {
      const root = join(dir, 'my bt');
      mkdirSync(join(root, 'scripts'), { recursive: true });
      copyFileSync(join(ROOT, 'scripts/ensure-install.mjs'), join(root, 'scripts/ensure-install.mjs'));
      writeFileSync(join(root, 'package-lock.json'), '{}');
      // npm itself stands in for a failed build: nothing is downloaded.
      mkdirSync(join(dir, 'bin'));
      writeFileSync(join(dir, 'bin/npm'), '#!/bin/sh\necho "gyp ERR! not ok" >&2\nexit 1\n');
      chmodSync(join(dir, 'bin/npm'), 0o755);
      const child = spawn(process.execPath, ['scripts/ensure-install.mjs'], { cwd: root, env: { PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (c) => (output += c));
      child.stderr.on('data', (c) => (output += c));
      const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
      assert.equal(code, 1, output);
      const lines = output.trim().split('\n');
      assert.equal(lines.at(-1), `bt: the path has a space ("${root}"): node-gyp cannot build the native SQLite module (sqlite3) there; clone or move the repository to a path without spaces`, output);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the SQLite npm ci builds sqlite3 against (scripts/ensure-install.mjs)", { skip: SQLITE_PASS_ONLY }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bt-sqlite-header-'));
  const header = (version: string | null) => {
    const path = join(dir, `sqlite3-${version ?? 'none'}.h`);
    writeFileSync(path, `/* a header */\n${version ? `#define SQLITE_VERSION_NUMBER ${version}\n` : ''}#define SQLITE_OK 0\n`);
    return path;
  };
  const found = () => '/usr/lib/x86_64-linux-gnu/libsqlite3.so';

  it("the system's SQLite when its header and library are there and recent enough: only the addon is compiled", () => {
    const path = header('3040001');
    assert.deepEqual(systemSqlite({ header: path, env: {}, findLibrary: found }), {
      env: { npm_config_sqlite: dirname(dirname(path)), npm_config_build_from_source: 'sqlite3' },
      note: "sqlite3 built against the system's SQLite 3.40.1",
    });
    assert.equal(systemSqlite({ header: header('3038000'), env: {}, findLibrary: found }).note, "sqlite3 built against the system's SQLite 3.38.0");
  });

  it('the bundled SQLite otherwise, saying why', () => {
    const bundled = (options: object) => {
      const answer = systemSqlite({ env: {}, findLibrary: found, ...options });
      assert.deepEqual(answer.env, {});
      return answer.note;
    };
    assert.equal(bundled({ header: join(dir, 'missing.h') }), `the SQLite bundled with sqlite3: no ${join(dir, 'missing.h')} (Debian: apt-get install libsqlite3-dev)`);
    assert.equal(bundled({ header: header('3037002') }), "the SQLite bundled with sqlite3: the system's SQLite (3.37.2) is older than 3.38.0");
    assert.equal(bundled({ header: header(null) }), "the SQLite bundled with sqlite3: the system's SQLite (no version) is older than 3.38.0");
    assert.equal(bundled({ header: header('3040001'), findLibrary: () => null }), 'the SQLite bundled with sqlite3: no libsqlite3.so for the linker');
    assert.equal(bundled({ header: header('3040001'), env: { BT_BUNDLED_SQLITE: '1' } }), 'the SQLite bundled with sqlite3: BT_BUNDLED_SQLITE=1');
  });

  it("this machine: Debian's libsqlite3-dev, where installed, is found by the compiler", { skip: !existsSync('/usr/include/sqlite3.h') && 'no libsqlite3-dev' }, () => {
    const answer = systemSqlite({ env: {} });
    assert.equal(answer.env.npm_config_sqlite, '/usr', answer.note);
    assert.match(answer.note, /^sqlite3 built against the system's SQLite 3\.\d+\.\d+$/);
  });
});
