// The admin commands talk to a running bt server over HTTP (docs/cli.md "bt admin"), with the
// admin's key; they never open its database or files.
import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { quoted, RunError, UsageError } from '../errors.js';
import { CLI_VERSION } from '../version.js';
import { checkAnswerShape, type AnswerShape } from './answer-shape.js';

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
  // fetch refuses such an address, and its message (then every later one naming the server)
  // printed the password on stderr, into CI logs. The address is not repeated here.
  if (url.username || url.password) throw new UsageError(`invalid --api: the address holds a user name or password (${url.protocol}//…@${url.host}): give the server's address alone, and the admin key with --key or BT_API_KEY`);
  // The calls' paths are appended to the address: a query or a fragment would swallow them (every
  // call went to the address's own page, answered "did not answer JSON").
  if (url.search || url.hash || /[?#]/.test(api)) throw new UsageError(`invalid --api: ${JSON.stringify(api)} has a query or a fragment (expected the server's address alone, such as http://127.0.0.1:8080)`);
  if (!key) throw new UsageError("the admin commands need an admin's key: --key KEY or BT_API_KEY (the key /api/login gives)");
  // A header cannot carry a control character, and a space or a letter outside ASCII is no key the
  // server gives: said here, not as "cannot reach the server: ERR_INVALID_CHAR". The key is not
  // printed (it is a secret), only where it goes wrong.
  const bad = /[^\x21-\x7e]/.exec(key);
  if (bad) throw new UsageError(`invalid ${flags.key !== undefined ? '--key' : 'BT_API_KEY'}: character ${bad.index + 1} is not a visible ASCII character (a key /api/login gives holds letters, digits, - and _ only)`);
  return { api: url.toString().replace(/\/+$/, ''), key };
}

/**
 * The most an answer may hold: the biggest the admin API sends (5,000 users, a billing file) is a
 * few megabytes; a server that goes on sending is cut off here rather than filling memory.
 */
export const MAX_ANSWER_BYTES = 256 << 20;

/** How long a call may take, in seconds: BT_API_TIMEOUT, else 600 (a reindex or an import of a big library answers when it is done). */
export function answerTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.BT_API_TIMEOUT?.trim();
  if (!text) return 600_000;
  const seconds = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(seconds) || seconds < 1 || seconds > 86_400) {
    throw new UsageError(`invalid BT_API_TIMEOUT: ${quoted(text)} (expected whole seconds from 1 to 86400)`);
  }
  return seconds * 1000;
}

/**
 * The last call the server answered (its address and path): an answer of another shape than this
 * bt reads (another version of the server) is reported naming it (actions/admin/shared.ts).
 */
export const lastAnswer = { api: '', path: '' };

/** What the server's log reads for an admin command's calls. */
const USER_AGENT = `bt/${CLI_VERSION}`;

/** An answer this bt cannot read (`why`: what is wrong in it), naming the server and the call. */
export function unreadableAnswerError(api: string, path: string, why: string): RunError {
  return new RunError(`the server at ${api} answered ${path} in a form bt ${CLI_VERSION} does not read (${why}): is the server the same version?`);
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

/** What an upload sends as its file: its size, and its bytes read at an offset as they go out. */
export interface UploadBody {
  size: number;
  read(offset: number, length: number): Promise<Buffer>;
}

type Query = Record<string, string | number | boolean | undefined>;

/** An answer with a success status, its body not yet read; `end` stops the call's deadline. */
interface Answer {
  readonly status: number;
  readonly statusText: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: IncomingMessage;
  end(): void;
}

function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * How much of an error answer is read, and how much of its sentence is printed: a refusal is one
 * sentence, and a server (or a proxy before it) that sends megabytes with an error status filled
 * the terminal or a CI log with them (docs/cli.md "bt admin").
 */
export const MAX_ERROR_BYTES = 64 << 10;
export const MAX_DETAIL_CHARS = 500;

/** `detail` as bt prints it: a string as it is, or the `msg` of each item of a list (another framework's form). */
function detailText(detail: unknown): string | null {
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    const messages = detail.map((d) => (typeof d === 'string' ? d : typeof (d as { msg?: unknown })?.msg === 'string' ? (d as { msg: string }).msg : null));
    if (messages.length > 0 && messages.every((m) => m !== null)) return messages.join('; ');
  }
  return null;
}

/** `(retry in 30 s)` from a Retry-After header in seconds or as a date, for a 429 or a 503; else ''. */
function retryHint(status: number, header: string | null | undefined): string {
  if ((status !== 429 && status !== 503) || !header) return '';
  const text = header.trim();
  const seconds = /^\d+$/.test(text) ? Number(text) : Math.ceil((Date.parse(text) - Date.now()) / 1000);
  if (!Number.isFinite(seconds)) return '';
  return ` (retry in ${Math.max(0, seconds)} s)`;
}

/** The sentence of an error answer: its `detail`, else the status text, else the start of the body; cut, with the retry hint. */
export function errorSentence(status: number, statusText: string, body: Uint8Array, retryAfter: string | null | undefined): string {
  const text = new TextDecoder().decode(body);
  let detail: string | null = null;
  try {
    detail = detailText((JSON.parse(text) as { detail?: unknown })?.detail);
  } catch {
    // not JSON (cut by the bound, or an HTML page of a proxy): the status text says it
  }
  let sentence = (detail ?? (statusText || text.trim() || 'no answer')).trim() || 'no answer';
  if (sentence.length > MAX_DETAIL_CHARS) sentence = `${sentence.slice(0, MAX_DETAIL_CHARS - 1)}…`;
  return sentence + retryHint(status, retryAfter);
}

export class AdminClient {
  private readonly timeoutMs: number;

  constructor(readonly connection: Connection, env: NodeJS.ProcessEnv = process.env) {
    this.timeoutMs = answerTimeoutMs(env);
  }

  private tooSlow(path: string): RunError {
    return new RunError(`the server at ${this.connection.api} did not answer ${path} within ${this.timeoutMs / 1000} s (BT_API_TIMEOUT)`);
  }

  private tooBig(path: string): RunError {
    return new RunError(`the server at ${this.connection.api} sent more than ${MAX_ANSWER_BYTES >> 20} MiB for ${path}: bt stopped reading`);
  }

  /** The answer's bytes, at most MAX_ANSWER_BYTES (the rest is not read), within the call's time. */
  private async bytesOf(answer: Answer, path: string): Promise<Uint8Array> {
    const pieces: Buffer[] = [];
    let total = 0;
    try {
      if (Number(answer.headers['content-length'] ?? NaN) > MAX_ANSWER_BYTES) throw this.tooBig(path);
      for await (const piece of answer.body) {
        total += (piece as Buffer).length;
        if (total > MAX_ANSWER_BYTES) throw this.tooBig(path);
        pieces.push(piece as Buffer);
      }
    } catch (error) {
      answer.body.destroy();
      if (error instanceof RunError) throw error;
      throw new RunError(`the server at ${this.connection.api} broke off its answer for ${path}: ${(error as Error).message}`);
    } finally {
      answer.end();
    }
    return Buffer.concat(pieces, total);
  }

  private redirected(path: string, status: number, location: string | undefined): RunError {
    return new RunError(`the server at ${this.connection.api} answered ${path} with a redirect (HTTP ${status}${location ? ` to ${location}` : ''}): bt does not send the admin key to another address; give the server's own address as --api`);
  }

  /** The first MAX_ERROR_BYTES of an error answer; the rest is not read. */
  private async errorBytesOf(answer: Answer): Promise<Uint8Array> {
    const pieces: Buffer[] = [];
    let total = 0;
    try {
      for await (const piece of answer.body) {
        pieces.push(piece as Buffer);
        total += (piece as Buffer).length;
        if (total >= MAX_ERROR_BYTES) break;
      }
    } catch (error) {
      if (error instanceof RunError) throw error;
      // Cut off mid-answer: the status is known, what came is enough.
    } finally {
      answer.body.destroy();
      answer.end();
    }
    return Buffer.concat(pieces, total).subarray(0, MAX_ERROR_BYTES);
  }

  /** Checked here, where the call is known: calls made together each name their own path. */
  private checkShape(answer: unknown, shape: AnswerShape, path: string): void {
    try {
      checkAnswerShape(answer, shape);
    } catch (error) {
      throw unreadableAnswerError(this.connection.api, path, (error as Error).message);
    }
  }

  private url(path: string, query?: Query): string {
    return `${this.connection.api}/api/admin${withQuery(path, query)}`;
  }

  /**
   * One call with node:http (not fetch: Node's fetch loads undici and compiles its HTTP parser to
   * WebAssembly, about a third of a short `bt admin` process's CPU, and the process stayed until V8
   * had optimised that code: docs/PERFORMANCE.md, "Command line (`bt`)"). Redirects are not
   * followed: the admin key would go to whatever address the answer names. The call's time
   * (BT_API_TIMEOUT) covers the whole answer, its body included (bytesOf, errorBytesOf).
   */
  private async send(method: string, path: string, options: { query?: Query; json?: unknown; form?: URLSearchParams } = {}): Promise<Answer> {
    const headers: Record<string, string> = { 'x-api-key': this.connection.key, accept: 'application/json', 'user-agent': USER_AGENT };
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
      body = options.form.toString();
    }
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const url = new URL(this.url(path, options.query));
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let req: ClientRequest | null = null;
    let res: IncomingMessage | null = null;
    const deadline = setTimeout(() => (res ?? req)?.destroy(this.tooSlow(path)), this.timeoutMs);
    try {
      res = await new Promise<IncomingMessage>((resolve, reject) => {
        req = request(url, { method, headers }, resolve);
        req.on('error', reject);
        req.end(body);
      });
    } catch (error) {
      clearTimeout(deadline);
      if (error instanceof RunError) throw error;
      throw new RunError(`cannot reach the server at ${this.connection.api}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    return this.answerOf(res, path, deadline);
  }

  /**
   * What the server answered `path`, once its status is known: a redirect or an error status is
   * thrown (the error's sentence read), a success returned with its body still to read before
   * `deadline`.
   */
  private async answerOf(res: IncomingMessage, path: string, deadline: ReturnType<typeof setTimeout>): Promise<Answer> {
    const answer: Answer = { status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: res.headers, body: res, end: () => clearTimeout(deadline) };
    if (answer.status >= 300 && answer.status < 400) {
      res.destroy();
      answer.end();
      throw this.redirected(path, answer.status, res.headers.location);
    }
    if (answer.status < 200 || answer.status >= 300) {
      throw new ServerError(answer.status, errorSentence(answer.status, answer.statusText, await this.errorBytesOf(answer), res.headers['retry-after']));
    }
    return answer;
  }

  /**
   * A JSON call; an error status becomes a ServerError (exit 1) with the server's sentence. With
   * `shape`, the fields the caller reads are checked first (admin/answer-shape.ts).
   */
  async json<T = Record<string, unknown>>(method: string, path: string, options: { query?: Query; json?: unknown; form?: URLSearchParams; shape?: AnswerShape } = {}): Promise<T> {
    const res = await this.send(method, path, options);
    const bytes = await this.bytesOf(res, path);
    let answer: T;
    try {
      answer = JSON.parse(new TextDecoder().decode(bytes)) as T;
    } catch {
      throw new RunError(`the server at ${this.connection.api} did not answer JSON for ${path}`);
    }
    Object.assign(lastAnswer, { api: this.connection.api, path });
    if (options.shape) this.checkShape(answer, options.shape, path);
    return answer;
  }

  /** A file: its bytes and the name the server gives it (content-disposition). */
  async file(path: string, query: Query): Promise<{ name: string | null; bytes: Uint8Array }> {
    const res = await this.send('GET', path, { query });
    const disposition = res.headers['content-disposition'] ?? '';
    const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
    const plain = /filename="([^"]+)"/i.exec(disposition);
    const name = star ? decodeURIComponent(star[1]) : plain ? plain[1] : null;
    return { name, bytes: await this.bytesOf(res, path) };
  }

  /**
   * A multipart upload written in chunks, so `onProgress(sent, total)` follows the bytes as they
   * leave (the progress bar of `bt admin import-output`). The file's bytes are read from `file.body`
   * as they go out, never held whole: an archive of a few gigabytes took as much memory.
   */
  async upload<T>(path: string, fields: Record<string, string>, file: { field: string; name: string; body: UploadBody }, onProgress: (sent: number, total: number) => void, shape?: AnswerShape): Promise<T> {
    const boundary = `----bt-admin-${Math.random().toString(16).slice(2)}${Date.now().toString(16)}`;
    let head = '';
    for (const [name, value] of Object.entries(fields)) head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const safeName = file.name.replace(/["\r\n\\]/g, '_');
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${safeName}"\r\nContent-Type: application/zip\r\n\r\n`;
    const before = Buffer.from(head);
    const after = Buffer.from(`\r\n--${boundary}--\r\n`);
    const { body } = file;
    const length = before.length + body.size + after.length;
    const at = async (offset: number, most: number): Promise<Buffer> => {
      if (offset < before.length) return before.subarray(offset, Math.min(before.length, offset + most));
      offset -= before.length;
      if (offset < body.size) {
        const piece = await body.read(offset, Math.min(most, body.size - offset));
        // Shorter than its size said: the file shrank while it was sent.
        if (piece.length === 0) throw new RunError(`${file.name} changed while it was being sent (it is shorter than when bt opened it)`);
        return piece;
      }
      offset -= body.size;
      return after.subarray(offset, Math.min(after.length, offset + most));
    };
    const url = new URL(this.url(path));
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = send(url, {
        method: 'POST',
        timeout: this.timeoutMs,
        headers: { 'x-api-key': this.connection.key, accept: 'application/json', 'user-agent': USER_AGENT, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(length) },
      }, resolve);
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (error instanceof RunError) return reject(error);
        // The server answered and closed while the archive was still going out (it refuses an
        // archive over its import limit without reading the rest): its answer is lost with the
        // connection, and "cannot reach the server: EPIPE" said nothing of why.
        if (sent > 0 && (error.code === 'EPIPE' || error.code === 'ECONNRESET')) {
          return void setTimeout(() => reject(new RunError(`the server at ${this.connection.api} closed the connection after ${sent} of ${length} bytes of ${path}: it stopped reading the upload (an archive over its import limit, 100 MB by default?)`)), 300);
        }
        reject(new RunError(`cannot reach the server at ${this.connection.api}: ${error.code ?? error.message}`));
      });
      // No byte either way for the call's time: the server is gone or stuck.
      req.on('timeout', () => req.destroy(this.tooSlow(path)));
      const CHUNK = 64 * 1024;
      let sent = 0;
      onProgress(0, length);
      const pump = async () => {
        try {
          while (sent < length && !req.destroyed) {
            const chunk = await at(sent, CHUNK);
            sent += chunk.length;
            const more = req.write(chunk);
            onProgress(sent, length);
            if (!more) {
              await new Promise<void>((resume) => {
                const go = () => {
                  req.off('drain', go);
                  req.off('close', go);
                  resume();
                };
                req.on('drain', go);
                req.on('close', go);
              });
            }
          }
          if (!req.destroyed) req.end();
        } catch (error) {
          req.destroy(error instanceof RunError ? error : new RunError(`cannot read ${file.name}: ${(error as Error).message}`));
        }
      };
      void pump();
    });
    const deadline = setTimeout(() => response.destroy(this.tooSlow(path)), this.timeoutMs);
    const bytes = await this.bytesOf(await this.answerOf(response, path, deadline), path);
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      parsed = null;
    }
    if (parsed === null) throw new RunError(`the server at ${this.connection.api} did not answer JSON for ${path}`);
    Object.assign(lastAnswer, { api: this.connection.api, path });
    if (shape) this.checkShape(parsed, shape, path);
    return parsed as T;
  }
}
