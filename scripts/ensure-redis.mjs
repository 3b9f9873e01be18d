// The server's queue tests (packages/server/test/queue.test.ts, queue-faults.test.ts) need Redis:
// redis-server installed (apt-get as root, like Chromium and bubblewrap), and one listening on
// 127.0.0.1:6379 (started here, without persistence, when none answers). BT_TEST_REDIS_URL names
// another Redis instead; then nothing is started.
import { spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ensureAptPackage } from './apt-package.mjs';

function answers(host, port) {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    let reply = '';
    socket.setTimeout(2000, () => { socket.destroy(); resolve(false); });
    socket.on('error', () => resolve(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk;
      if (reply.includes('\r\n')) {
        socket.destroy();
        resolve(reply.startsWith('+PONG'));
      }
    });
  });
}

export async function ensureRedis() {
  const found = ensureAptPackage({ path: '/usr/bin/redis-server', pkg: 'redis-server', purpose: 'The job queue tests run against a real Redis' });
  if (found.problem) {
    console.error(found.problem);
    process.exit(1);
  }
  if (process.env.BT_TEST_REDIS_URL) return process.env.BT_TEST_REDIS_URL;
  if (await answers('127.0.0.1', 6379)) return 'redis://127.0.0.1:6379';
  console.log('bt: starting redis-server on 127.0.0.1:6379 (no persistence) for the queue tests');
  const started = spawnSync('redis-server', ['--daemonize', 'yes', '--bind', '127.0.0.1', '-::1', '--port', '6379', '--save', '', '--appendonly', 'no'], { stdio: 'inherit' });
  for (let i = 0; i < 50 && !(await answers('127.0.0.1', 6379)); i++) await new Promise((r) => setTimeout(r, 100));
  if (started.status !== 0 || !(await answers('127.0.0.1', 6379))) {
    console.error('bt: redis-server did not start on 127.0.0.1:6379; start one, or set BT_TEST_REDIS_URL.');
    process.exit(1);
  }
  return 'redis://127.0.0.1:6379';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(`bt: Redis at ${await ensureRedis()}`);
