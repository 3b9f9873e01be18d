import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface TcpRelay {
  port: number;
  /** Stops carrying bytes both ways (and opens nothing new) until `thaw`: a partition, a frozen server. */
  freeze(): void;
  thaw(): void;
  /** Drops every connection and refuses new ones (ECONNREFUSED) until `restore`: a server gone. */
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** A TCP relay on a loopback port of its own to `target`, for fault tests (a database behind it). */
export async function startTcpRelay(target: { host: string; port: number }): Promise<TcpRelay> {
  let frozen = false;
  const pairs = new Set<[Socket, Socket]>();
  const server: Server = createServer((client) => {
    const upstream = createConnection(target);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    for (const [from, to] of [pair, [upstream, client] as const]) {
      from.on('data', (chunk) => void to.write(chunk));
      from.on('error', () => to.destroy());
      from.on('close', () => {
        to.destroy();
        pairs.delete(pair);
      });
    }
    if (frozen) for (const s of pair) s.pause();
  });
  const listen = (port: number) => new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const dropAll = () => {
    for (const pair of pairs) for (const s of pair) s.destroy();
  };
  await listen(0);
  const port = (server.address() as { port: number }).port;
  return {
    port,
    freeze() {
      frozen = true;
      for (const pair of pairs) for (const s of pair) s.pause();
    },
    thaw() {
      frozen = false;
      for (const pair of pairs) for (const s of pair) s.resume();
    },
    async cut() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      dropAll();
      await closed;
    },
    restore: () => listen(port),
    close: () =>
      new Promise<void>((resolve) => {
        dropAll();
        if (!server.listening) return resolve();
        server.close(() => resolve());
      }),
  };
}
