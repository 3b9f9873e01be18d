import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { startServerProcess } from './support/server-process.js';

/** Sends the head of a request and part of its body, and returns what the server answers in the end. */
function slowRequest(url: string, body: string, firstPart: number) {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let answer = '';
  socket.on('data', (chunk) => (answer += chunk));
  const answered = new Promise<string>((resolve, reject) => {
    socket.on('end', () => resolve(answer));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
  socket.write(`POST /api/login HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: keep-alive\r\n\r\n`);
  socket.write(body.slice(0, firstPart));
  return { rest: () => socket.write(body.slice(firstPart)), answered };
}

describe('graceful shutdown', () => {
  it('SIGTERM during a request: no new connections, the running request answered, closers run, exit 0', async () => {
    const server = await startServerProcess({ SHUTDOWN_TIMEOUT_MS: '10000' });
    try {
      // An idle keep-alive connection must not hold the stop back.
      const idle = await fetch(`${server.url}/api/health`, { keepalive: true });
      assert.equal(idle.status, 200);
      const body = JSON.stringify({ identifier: 'personne', password: 'mot-de-passe-faux' });
      const slow = slowRequest(server.url, body, 10);
      await new Promise((r) => setTimeout(r, 200));
      process.kill(server.pid, 'SIGTERM');
      const deadline = Date.now() + 5000;
      while (!/SIGTERM received, stopping/.test(server.output())) {
        assert.ok(Date.now() < deadline, server.output());
        await new Promise((r) => setTimeout(r, 20));
      }
      await assert.rejects(fetch(`${server.url}/api/health`), 'the listener is closed: a new connection is refused');
      slow.rest();
      const answer = await slow.answered;
      assert.match(answer, /^HTTP\/1\.1 401 /, answer);
      assert.match(answer, /"detail":/);
      const { code, signal } = await server.exited();
      assert.deepEqual({ code, signal }, { code: 0, signal: null }, server.output());
      assert.match(server.output(), /"msg":"bt: stopped"/);
      assert.doesNotMatch(server.output(), /not closed cleanly|shutdown: /);
      // The access line of the request that finished during the stop.
      assert.match(server.output(), /"route":"\/api\/login","url":"\/api\/login","status":401/);
    } finally {
      await server.stop();
    }
  });
});
