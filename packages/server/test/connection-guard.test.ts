// The per-address connection cap (app/connection-guard.ts, docs/security.md "Connections"): a
// client that holds connections open without finishing a request (a "slowloris") holds at most
// MAX_CONNECTIONS_PER_IP of them; past it a connection is answered 429 with its sentence and
// closed before its request is read, so that request never runs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tmpdir } from 'node:os';
import { addressKey } from '../src/app/connection-guard.js';
import { preflight } from '../src/config/preflight.js';
import { MSG } from '../src/app/messages.js';
import { rawConnection, UNFINISHED_HEAD, wholeHead, type RawConnection } from './support/raw-http.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';

/** A connection that sends the start of a request head and never its end. */
async function heldOpen(url: string): Promise<RawConnection> {
  const held = rawConnection(url, UNFINISHED_HEAD);
  await held.connected;
  return held;
}

/** A whole request on a fresh connection, and everything the server sent before it closed. */
async function wholeRequest(url: string, path: string): Promise<string> {
  const request = rawConnection(url, wholeHead(path));
  await request.closed;
  return request.answer();
}

async function until(what: string, check: () => Promise<boolean> | boolean, server: ServerProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `${what}\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('connections per client address', () => {
  it('counts IPv4 addresses as they are and IPv6 addresses by their /64', () => {
    assert.equal(addressKey('127.0.0.1'), '127.0.0.1');
    assert.equal(addressKey('::ffff:203.0.113.9'), '203.0.113.9');
    assert.equal(addressKey('::1'), '0:0:0:0::/64');
    assert.equal(addressKey('2001:db8:85a3:12::8a2e:370:7334'), '2001:db8:85a3:12::/64');
    assert.equal(addressKey('2001:DB8:85A3:0012:ffff:0:0:1'), '2001:db8:85a3:12::/64');
    assert.equal(addressKey('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(addressKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
    assert.equal(addressKey('::ffff:0:1.2.3.4'), '0:0:0:0::/64');
  });

  it('past MAX_CONNECTIONS_PER_IP a connection gets a 429 with its sentence and its request never runs; a freed place serves again', async () => {
    const server = await startServerProcess({ MAX_CONNECTIONS_PER_IP: '4' });
    const held: RawConnection[] = [];
    try {
      for (let i = 0; i < 4; i++) held.push(await heldOpen(server.url));
      const refused = await wholeRequest(server.url, '/api/health?refused=raw');
      assert.match(refused, /^HTTP\/1\.1 429 Too Many Requests\r\n/, refused);
      assert.match(refused, /\r\nRetry-After: 5\r\n/);
      assert.equal(JSON.parse(refused.slice(refused.indexOf('\r\n\r\n') + 4)).detail, MSG.tooManyConnections);
      // A client library sees an ordinary 429 with its detail.
      const answer = await fetch(`${server.url}/api/health?refused=fetch`);
      assert.deepEqual([answer.status, ((await answer.json()) as { detail: string }).detail], [429, MSG.tooManyConnections]);
      // The held connections are still open and unanswered: the cap closes nothing it let in.
      assert.deepEqual(held.map((h) => [h.socket.destroyed, h.answer()]), Array(4).fill([false, '']));
      held[0].socket.destroy();
      await held[0].closed;
      // The place is freed when the server sees the close: until then a call is refused too (counted).
      let metrics = '';
      let refusedMeanwhile = 0;
      await until('a freed place serves again', async () => {
        const res = await fetch(`${server.url}/metrics`);
        metrics = await res.text();
        refusedMeanwhile += res.status === 429 ? 1 : 0;
        return res.status === 200;
      }, server);
      assert.match(metrics, new RegExp(`^bt_connections_refused_total ${2 + refusedMeanwhile}$`, 'm'), metrics);
      // The three still held and the client's own keep-alive connection.
      assert.match(metrics, /^bt_connections_open 4$/m, metrics);
      // Finishing a held request's head gets it answered like any other.
      held[1].socket.write('1\r\nConnection: close\r\n\r\n');
      await held[1].closed;
      assert.match(held[1].answer(), /^HTTP\/1\.1 200 /);
      // The refused requests never reached the app: no access line names them.
      assert.doesNotMatch(server.output(), /refused=(raw|fetch)/);
    } finally {
      for (const h of held) h.socket.destroy();
      await server.stop();
    }
  });

  it('is off behind a proxy (TRUST_PROXY: every connection comes from the proxy) and with MAX_CONNECTIONS_PER_IP=0', async () => {
    // Behind a declared proxy /metrics answers its token only (docs/deployment.md, "Metrics").
    const token = 'connection-guard-metrics-token';
    for (const env of [{ MAX_CONNECTIONS_PER_IP: '2', TRUST_PROXY: 'true', METRICS_TOKEN: token }, { MAX_CONNECTIONS_PER_IP: '0', METRICS_TOKEN: token }] as Record<string, string>[]) {
      const server = await startServerProcess(env);
      const held: RawConnection[] = [];
      try {
        for (let i = 0; i < 6; i++) held.push(await heldOpen(server.url));
        assert.equal((await fetch(`${server.url}/api/health`)).status, 200, JSON.stringify(env));
        assert.match(await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text(), /^bt_connections_refused_total 0$/m);
      } finally {
        for (const h of held) h.socket.destroy();
        await server.stop();
      }
    }
  });

  it('refuses a bad setting at start, naming it', async () => {
    // The start's checks, in this process (main.ts runs them before it opens anything; the
    // refusal's one line: docs/server.md, "Environment").
    await assert.rejects(preflight('serve', { PORT: '0', DATA_DIR: tmpdir(), SEED_DIR: 'off', MAX_CONNECTIONS_PER_IP: 'many' }), /^Error: invalid MAX_CONNECTIONS_PER_IP: many \(expected an integer from 0 to 1000000\)$/);
  });
});
