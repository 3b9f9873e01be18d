import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { freePort, waitFor } from './redis.js';

export interface PrivateMariaDb {
  /** mysql://root@127.0.0.1:{port}/{database} */
  url: string;
  /** Kills the server at once (SIGKILL: crash recovery at the next start). */
  kill(): Promise<void>;
  /** Starts it again on the same port and data directory. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A MariaDB server of the test's own (`mariadb-install-db` into a temporary directory, then
 * `/usr/sbin/mariadbd` on a free loopback port, no grant tables, no system config), with one empty
 * database: for fault tests that stop and restart it, never the machine's shared server.
 */
export async function startPrivateMariaDb(database = 'bt'): Promise<PrivateMariaDb> {
  const dir = mkdtempSync(join(tmpdir(), 'bt-mariadb-'));
  const data = join(dir, 'data');
  const installed = spawnSync('mariadb-install-db', ['--no-defaults', `--datadir=${data}`, '--user=root', '--auth-root-authentication-method=normal', '--skip-test-db'], { encoding: 'utf8' });
  if (installed.status !== 0) throw new Error(`mariadb-install-db failed (${installed.status}): ${installed.stdout}${installed.stderr}`);
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(
      '/usr/sbin/mariadbd',
      ['--no-defaults', `--datadir=${data}`, `--port=${port}`, '--bind-address=127.0.0.1', `--socket=${join(dir, 'mysqld.sock')}`, `--pid-file=${join(dir, 'mysqld.pid')}`, '--user=root', '--skip-grant-tables', '--innodb-buffer-pool-size=32M', '--skip-log-bin'],
      { stdio: 'ignore' },
    );
    await waitFor(async () => {
      try {
        const conn = await createConnection({ host: '127.0.0.1', port, user: 'root' });
        await conn.end();
        return true;
      } catch {
        return false;
      }
    }, `mariadbd on port ${port}`, 30_000);
  };
  const kill = async () => {
    const c = child as ChildProcess | null;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  };
  await start();
  const conn = await createConnection({ host: '127.0.0.1', port, user: 'root' });
  await conn.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await conn.end();
  return {
    url: `mysql://root@127.0.0.1:${port}/${database}`,
    kill,
    restart: start,
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
