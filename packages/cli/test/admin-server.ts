// A real bt server for the `bt admin` tests: its own process (the server's TypeScript sources
// under tsx), SQLite in a fresh data directory, the library seeded from the fixtures, on a free
// port; stopped by its pid. The CLI only ever talks to it over HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { root } from './helpers.js';

export interface AdminServer {
  url: string;
  dataDir: string;
  adminKey: string;
  output(): string;
  stop(): Promise<void>;
}

export const ADMIN_PASSWORD = 'admin-password-cli';

export async function startAdminServer(env: Record<string, string> = {}): Promise<AdminServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bt-cli-admin-'));
  const serverDir = join(root, 'packages/server');
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', '--conditions=@bt/source', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIST: 'off',
      VERIFY_ON_SCREEN: 'credits',
      PASSWORD_HASH_COST: '14',
      ADMIN_PASSWORD,
      RATE_LIMIT_LOGIN: 'off',
      RATE_LIMIT_REGISTER: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  const deadline = Date.now() + 90_000;
  let url = '';
  while (!url) {
    const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
    if (match) url = match[1];
    else if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
    else if (Date.now() > deadline) throw new Error(`the server did not start within 90 s:\n${output}`);
    else await new Promise((r) => setTimeout(r, 100));
  }
  const login = await fetch(`${url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: 'admin@bt.local', password: ADMIN_PASSWORD }) });
  const adminKey = ((await login.json()) as { token: string }).token;
  return {
    url,
    dataDir,
    adminKey,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Registers a user through the API; returns its id and key. */
export async function registerUser(server: AdminServer, name: string): Promise<{ id: number; key: string; email: string }> {
  const email = `${name}@example.com`;
  const res = await fetch(`${server.url}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ first_name: 'Camille', last_name: 'Durand', email, username: name, password: 'motdepasse-cli' }),
  });
  const { token } = (await res.json()) as { token: string };
  const me = (await (await fetch(`${server.url}/api/me`, { headers: { 'x-api-key': token } })).json()) as { id: number };
  return { id: me.id, key: token, email };
}

/** A ZIP of stored (uncompressed) entries: enough for the import tests. */
export function storedZip(entries: { name: string; data: string }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const data = Buffer.from(entry.data);
    const crc = crc32(data) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(10, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(10, 4);
    central.writeUInt16LE(10, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += 30 + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
