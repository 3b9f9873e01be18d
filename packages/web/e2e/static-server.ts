/**
 * Serves the built app (packages/web/dist) with the single-page fallback and forwards /api/* to a
 * bt server, until the server serves the app itself (issue 7, "not yet").
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
};

/** A canned answer the tests put in front of the API (downloads cannot go through page.route). */
export interface CannedAnswer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | string;
}

export async function serveApp(
  distDir: string,
  apiTarget: () => string | null,
  canned: Map<string, CannedAnswer> = new Map(),
): Promise<{ url: string; close: () => Promise<void> }> {
  const root = normalize(distDir);
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    const answer = canned.get(url.pathname);
    if (answer) {
      res.writeHead(answer.status, answer.headers).end(answer.body);
      return;
    }
    if (url.pathname.startsWith('/api/')) {
      const base = apiTarget();
      if (!base) {
        res.writeHead(503, { 'Content-Type': 'application/json' }).end('{"detail":"Aucun serveur API"}');
        return;
      }
      const target = new URL(url.pathname + url.search, base);
      const upstream = request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.writeHead(502, { 'Content-Type': 'text/plain' }).end('Bad gateway'));
      req.pipe(upstream);
      return;
    }
    let file = normalize(join(root, decodeURIComponent(url.pathname)));
    if (!file.startsWith(root + sep) || !existsSync(file) || statSync(file).isDirectory()) file = join(root, 'index.html');
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
