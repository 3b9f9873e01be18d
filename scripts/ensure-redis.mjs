// The server's tests run against a real Redis (shared rate limits, and the job queue of
// docs/queue.md): BT_TEST_REDIS_URL, by default 127.0.0.1:6379, each test under its own key
// prefix. `redis-server` is also started privately by the fault tests (a Redis they stop and
// start again). This makes sure both are there: the binary (apt-get as root), and a server on the
// default address, started without persistence when nothing answers there.
import { spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ensureAptPackage } from './apt-package.mjs';

const DEFAULT_URL = 'redis://127.0.0.1:6379';

function ping(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port || 6379), hostname.replace(/^\[|\]$/g, ''));
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => done(String(chunk).startsWith('+PONG') || String(chunk).startsWith('-NOAUTH')));
  });
}

export async function ensureRedis() {
  const found = ensureAptPackage({ path: '/usr/bin/redis-server', pkg: 'redis-server', purpose: 'The server tests need Redis (rate limits, job queue)' });
  if (found.problem) {
    console.error(found.problem);
    process.exit(1);
  }
  const url = process.env.BT_TEST_REDIS_URL || DEFAULT_URL;
  if (await ping(url)) return url;
  if (url !== DEFAULT_URL) {
    console.error(`bt: no Redis answers at BT_TEST_REDIS_URL=${url}`);
    process.exit(1);
  }
  console.log('bt: starting redis-server on 127.0.0.1:6379 (no persistence) for the tests');
  spawnSync('/usr/bin/redis-server', ['--daemonize', 'yes', '--bind', '127.0.0.1', '-::1', '--port', '6379', '--save', '', '--appendonly', 'no'], { stdio: 'inherit' });
  for (let i = 0; i < 50; i++) {
    if (await ping(url)) return url;
    await new Promise((r) => setTimeout(r, 100));
  }
  console.error('bt: redis-server did not answer on 127.0.0.1:6379');
  process.exit(1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(`bt: Redis at ${await ensureRedis()}`);
