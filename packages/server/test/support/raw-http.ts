import { connect, type Socket } from 'node:net';

/** A connection that sends `head` as it is (a request head, whole or cut short) and gathers the answer. */
export interface RawConnection {
  socket: Socket;
  /** Everything the server has sent so far. */
  answer(): string;
  connected: Promise<void>;
  closed: Promise<void>;
}

/** Opens a connection to the server at `url` and writes `head` to it; `{host}` in it becomes the server's host:port. */
export function rawConnection(url: string, head: string): RawConnection {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let answer = '';
  socket.on('data', (chunk) => (answer += chunk));
  socket.on('error', () => undefined);
  const connected = new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  // Callers that never wait for the connection must not meet its failure as an unhandled rejection.
  connected.catch(() => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(head.replaceAll('{host}', `${hostname}:${port}`));
  return { socket, answer: () => answer, connected, closed };
}

/** The start of a request head that never ends (a slowloris' connection). */
export const UNFINISHED_HEAD = 'GET /api/health HTTP/1.1\r\nHost: {host}\r\nX-Slow: ';

/** A whole request that asks the server to close after answering. */
export const wholeHead = (path: string) => `GET ${path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n`;
