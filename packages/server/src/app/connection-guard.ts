// How many connections one client address may hold open at once (docs/security.md,
// "Connections"). Rate limits count requests; a client that opens connections and sends its
// headers a byte at a time makes no request, yet holds a socket, its buffers and a place in the
// process until Node's header timeout. Past the cap a connection is answered at once with a 429
// and closed, before the HTTP layer reads a byte of it, so a refused request never runs.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { MSG } from './messages.js';

export interface ConnectionLimits {
  /** Connections one address (one IPv6 /64) may hold at once; 0: no cap. */
  perAddress: number;
  /** Connections the process holds at once (Node's `maxConnections`: past it, dropped). */
  total: number;
}

/** What the guard reports: connections open now and refused so far (GET /metrics). */
export interface ConnectionGuard {
  open(): number;
  refused(): number;
}

/**
 * The key an address is counted under: an IPv4 address (IPv4-mapped IPv6 included) as itself, an
 * IPv6 address by its /64, the smallest block a subscriber is given, so that one client cannot
 * take a fresh address for every connection.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!address.includes(':')) return address;
  const [head, tail] = address.split('%')[0].toLowerCase().split('::');
  let groups = head ? head.split(':') : [];
  if (tail !== undefined) {
    const right = tail ? tail.split(':') : [];
    // A dotted IPv4 tail (::ffff:0:1.2.3.4) stands for two groups.
    const width = right.length + (right.at(-1)?.includes('.') ? 1 : 0);
    groups = [...groups, ...Array<string>(Math.max(0, 8 - groups.length - width)).fill('0'), ...right];
  }
  return `${groups.slice(0, 4).map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16).toString(16) : g)).join(':')}::/64`;
}

function refusal(): Buffer {
  const body = JSON.stringify({ detail: MSG.tooManyConnections });
  return Buffer.from(
    'HTTP/1.1 429 Too Many Requests\r\n' +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Retry-After: 5\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/**
 * Puts the cap in front of the HTTP layer: the server's own `connection` listener (the HTTP
 * parser's) is called only for connections within the cap. Where the runtime's server emits no
 * such listener (Deno's node:http), nothing is guarded and `null` says so.
 */
export function guardConnections(server: Server, limits: ConnectionLimits): ConnectionGuard | null {
  server.maxConnections = limits.total;
  const http = server.listeners('connection') as ((socket: Socket) => void)[];
  if (limits.perAddress <= 0 || http.length !== 1) return null;
  const [parse] = http;
  const held = new Map<string, number>();
  let open = 0;
  let refused = 0;
  const answer = refusal();
  server.removeListener('connection', parse);
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (!address) return void socket.destroy();
    const key = addressKey(address);
    const count = held.get(key) ?? 0;
    if (count >= limits.perAddress) {
      refused++;
      socket.on('error', () => undefined);
      // What the client sent is read and dropped: unread bytes at close would make the kernel
      // reset the connection, and the client might not see the answer.
      socket.resume();
      socket.end(answer);
      setTimeout(() => socket.destroy(), 2000).unref();
      return;
    }
    held.set(key, count + 1);
    open++;
    socket.once('close', () => {
      open--;
      const left = (held.get(key) ?? 1) - 1;
      if (left > 0) held.set(key, left);
      else held.delete(key);
    });
    parse.call(server, socket);
  });
  return { open: () => open, refused: () => refused };
}
