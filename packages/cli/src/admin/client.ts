// The admin commands talk to a running bt server over HTTP (docs/cli.md "bt admin"), with the
// admin's key; they never open its database or files.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { RunError, UsageError } from '../errors.js';

export interface ConnectionFlags {
  api?: string;
  key?: string;
}

export interface Connection {
  /** Base URL, without a trailing slash: `http://127.0.0.1:8080`. */
  api: string;
  key: string;
}

/** `--api` / `--key`, else BT_API_URL / BT_API_KEY; a usage error names what is missing. */
export function connectionOf(flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env): Connection {
  const api = (flags.api ?? env.BT_API_URL ?? '').trim();
  const key = (flags.key ?? env.BT_API_KEY ?? '').trim();
  if (!api) throw new UsageError("the admin commands need the server's address: --api URL or BT_API_URL (e.g. http://127.0.0.1:8080)");
  let url: URL;
  try {
    url = new URL(api);
  } catch {
    throw new UsageError(`invalid --api: ${JSON.stringify(api)} (expected an http(s) URL such as http://127.0.0.1:8080)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`invalid --api: ${JSON.stringify(api)} (expected an http(s) URL such as http://127.0.0.1:8080)`);
  if (!key) throw new UsageError("the admin commands need an admin's key: --key KEY or BT_API_KEY (the key /api/login gives)");
  return { api: url.toString().replace(/\/+$/, ''), key };
}

/** What the server answered with an error status: its status and French `detail`. */
export class ServerError extends RunError {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`HTTP ${status}: ${detail}`);
  }
}

type Query = Record<string, string | number | boolean | undefined>;

function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

async function detailOf(res: Response): Promise<string> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { detail?: unknown };
    if (typeof body.detail === 'string') return body.detail;
  } catch {
    // not JSON: the status text says it
  }
  return res.statusText || text.slice(0, 200) || 'no answer';
}

export class AdminClient {
  constructor(readonly connection: Connection) {}

  private url(path: string, query?: Query): string {
    return `${this.connection.api}/api/admin${withQuery(path, query)}`;
  }

  private async send(method: string, path: string, options: { query?: Query; json?: unknown; form?: URLSearchParams } = {}): Promise<Response> {
    const headers: Record<string, string> = { 'x-api-key': this.connection.key, accept: 'application/json' };
    let body: string | URLSearchParams | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) body = options.form;
    let res: Response;
    try {
      res = await fetch(this.url(path, options.query), { method, headers, body });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new RunError(`cannot reach the server at ${this.connection.api}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
    }
    if (!res.ok) throw new ServerError(res.status, await detailOf(res));
    return res;
  }

  /** A JSON call; an error status becomes a ServerError (exit 1) with the server's sentence. */
  async json<T = Record<string, unknown>>(method: string, path: string, options: { query?: Query; json?: unknown; form?: URLSearchParams } = {}): Promise<T> {
    const res = await this.send(method, path, options);
    try {
      return (await res.json()) as T;
    } catch {
      throw new RunError(`the server at ${this.connection.api} did not answer JSON for ${path}`);
    }
  }

  /** A file: its bytes and the name the server gives it (content-disposition). */
  async file(path: string, query: Query): Promise<{ name: string | null; bytes: Uint8Array }> {
    const res = await this.send('GET', path, { query });
    const disposition = res.headers.get('content-disposition') ?? '';
    const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
    const plain = /filename="([^"]+)"/i.exec(disposition);
    const name = star ? decodeURIComponent(star[1]) : plain ? plain[1] : null;
    return { name, bytes: new Uint8Array(await res.arrayBuffer()) };
  }

  /**
   * A multipart upload written in chunks, so `onProgress(sent, total)` follows the bytes as they
   * leave (the progress bar of `bt admin import-output`).
   */
  async upload<T>(path: string, fields: Record<string, string>, file: { field: string; name: string; bytes: Uint8Array }, onProgress: (sent: number, total: number) => void): Promise<T> {
    const boundary = `----bt-admin-${Math.random().toString(16).slice(2)}${Date.now().toString(16)}`;
    const parts: Buffer[] = [];
    for (const [name, value] of Object.entries(fields)) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    }
    const safeName = file.name.replace(/["\r\n\\]/g, '_');
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${safeName}"\r\nContent-Type: application/zip\r\n\r\n`));
    parts.push(Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength));
    parts.push(Buffer.from(`\r\n--${boundary}--\r\n`));
    const body = Buffer.concat(parts);
    const url = new URL(this.url(path));
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = send(url, {
        method: 'POST',
        headers: { 'x-api-key': this.connection.key, accept: 'application/json', 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length) },
      }, resolve);
      req.on('error', (error: NodeJS.ErrnoException) => reject(new RunError(`cannot reach the server at ${this.connection.api}: ${error.code ?? error.message}`)));
      const CHUNK = 64 * 1024;
      let sent = 0;
      onProgress(0, body.length);
      const writeNext = () => {
        while (sent < body.length) {
          const chunk = body.subarray(sent, Math.min(body.length, sent + CHUNK));
          sent += chunk.length;
          const more = req.write(chunk);
          onProgress(sent, body.length);
          if (!more) {
            req.once('drain', writeNext);
            return;
          }
        }
        req.end();
      };
      writeNext();
    });
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    const status = response.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      const detail = parsed && typeof (parsed as { detail?: unknown }).detail === 'string' ? (parsed as { detail: string }).detail : response.statusMessage || 'no answer';
      throw new ServerError(status, detail);
    }
    if (parsed === null) throw new RunError(`the server at ${this.connection.api} did not answer JSON for ${path}`);
    return parsed as T;
  }
}
