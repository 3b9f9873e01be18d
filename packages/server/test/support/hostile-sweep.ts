// The route sweep: every route of a running app against hostile input, in every identity, and what
// came back that should not have (docs/security.md, "Request bodies"). The routes are read from the
// app's routers, not listed by hand, so a route added later is swept too; the field names are every
// name the server's files that read a request mention.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MSG } from '../../src/app/messages.js';
import type { TestApp } from './app.js';
import { funded, makeAdmin } from './work.js';

export interface Route {
  method: string;
  path: string;
}

/** The app's routes, from the @koa/router middlewares createApp mounted (each carries its router). */
export function appRoutes(app: TestApp['app']): Route[] {
  const routes: Route[] = [];
  for (const fn of app.middleware as Array<{ router?: { stack: Array<{ path: string; methods: string[] }> } }>) {
    for (const layer of fn.router?.stack ?? []) {
      for (const method of layer.methods) if (method !== 'HEAD') routes.push({ method, path: layer.path });
    }
  }
  return routes;
}

/**
 * Every identifier-like string literal of the server's files that read a request (a body, a query,
 * the input helpers): a superset of the fields any route reads.
 */
export function fieldNames(): string[] {
  const root = fileURLToPath(new URL('../../src/', import.meta.url));
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) {
        const source = readFileSync(path, 'utf8');
        if (!/bodyOf|ctx\.query|ctx\.request\.body|app\/input\.js'|\.\/input\.js'|ctx\.params/.test(source)) continue;
        for (const m of source.matchAll(/['"`]([a-z][A-Za-z0-9_]{0,39})['"`]/g)) names.add(m[1]);
      }
    }
  };
  walk(root);
  names.delete('__proto__');
  return [...names].sort();
}

/** Values no field expects, one kind per body (every field gets it). */
const HOSTILE_VALUES: unknown[] = [
  null,
  true,
  -1,
  0,
  1.5,
  1e308,
  9007199254740993,
  '',
  'NaN',
  '-0',
  '1e400',
  '１２',
  '2026-13-45',
  '../../../../etc/passwd',
  '\u0000',
  'é'.repeat(300),
  '<script>alert(1)</script>',
  [],
  ['a', 'b'],
  {},
  { $gt: '' },
];

/** Path parameters: numbers out of range, traversal, encodings no route can decode. */
const HOSTILE_PARAMS = ['0', '-1', '1e309', 'NaN', '99999999999999999999', '%00', '..%2F..%2Fetc%2Fpasswd', 'a'.repeat(300), '%E9', '%', 'null', '1.5'];
/** The parameters that also get every hostile body and query (an id that may exist, one that cannot, a traversal). */
const SWEPT_PARAMS = new Set(['1', '-1', '..%2F..%2Fetc%2Fpasswd']);

/** Headers, each set alone (given after the request's own, so they replace them). */
const HOSTILE_HEADERS: Record<string, string>[] = [
  { 'x-api-key': 'k'.repeat(4000) },
  { 'x-api-key': '../../etc/passwd' },
  { authorization: 'Bearer ' + 'b'.repeat(2000) },
  { authorization: 'Basic %%%' },
  { cookie: 'bt_session=%E9; ; =; bt_session=' + 'c'.repeat(1000) },
  { 'content-type': 'application/json; charset=utf-16' },
  { 'content-type': 'application/x-www-form-urlencoded; charset=latin1' },
  { range: 'bytes=99999999999-1, -0' },
  { 'if-none-match': '*'.repeat(500) },
  { 'x-forwarded-for': 'not-an-ip, ' + '9'.repeat(300) },
  { 'accept-language': '*;q=NaN' },
];

/** Query strings (lists and brackets included). */
function hostileQueries(fields: string[]): string[] {
  const scalars = ['-1', '1e309', 'NaN', '', '..%2F..', '%00', '2026-13-45', '%E9', 'x'.repeat(300)];
  const forms = [...scalars.map((v) => (f: string) => `${f}=${v}`), (f: string) => `${f}=a&${f}=b`, (f: string) => `${f}[x]=1`];
  // Node refuses request heads over 16 KiB itself (431): the fields go in groups that fit.
  const queries: string[] = [];
  for (const form of forms) {
    let query = '';
    for (const f of fields) {
      const part = form(f);
      if (query.length + part.length > 6000) {
        queries.push(query);
        query = '';
      }
      query += (query ? '&' : '') + part;
    }
    if (query) queries.push(query);
  }
  return queries;
}

const fill = (path: string, value: string) => path.replace(/:[A-Za-z_]+/g, value);

export interface Outcome {
  route: string;
  request: string;
  status: number;
  text: string;
}

async function send(t: TestApp, method: string, path: string, key: string | undefined, init: { json?: unknown; body?: string; type?: string; headers?: Record<string, string> }): Promise<Outcome | null> {
  const headers: Record<string, string> = {};
  if (key) headers['x-api-key'] = key;
  Object.assign(headers, init.headers);
  let body: string | undefined;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  } else if (init.body !== undefined) {
    headers['content-type'] = init.type ?? 'text/plain';
    body = init.body;
  }
  const res = await fetch(t.url + path, { method, headers, body: method === 'GET' || method === 'HEAD' ? undefined : body, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
  // A stream (live events) answered: nothing more to read.
  if (res.headers.get('content-type')?.includes('event-stream')) {
    await res.body?.cancel();
    return null;
  }
  const text = await res.text();
  return { route: `${method} ${path}`, request: init.json !== undefined ? JSON.stringify(init.json).slice(0, 120) : (init.body ?? '').slice(0, 120), status: res.status, text };
}

export interface SweepResult {
  /** Requests sent. */
  requests: number;
  /** Answers that should not have been: a 5xx other than a 503 with its sentence, a 4xx without {detail}. */
  failures: Outcome[];
}

/** Sends every hostile request to each route (anonymous, as a user, as an admin) and keeps what came back wrong. */
/**
 * `all`: every kind of hostile input. `database`: what differs from one database to another, text
 * and null values in bodies and queries (the second database's run, for the CI's time: the other
 * kinds are refused before any query, the same on both).
 */
export type SweepScope = 'all' | 'database';

export async function sweepRoutes(t: TestApp, routes: Route[], fields: string[], scope: SweepScope = 'all'): Promise<SweepResult> {
  const values = scope === 'all' ? HOSTILE_VALUES : HOSTILE_VALUES.filter((v) => v === null || typeof v === 'string');
  const failures: Outcome[] = [];
  let requests = 0;
  const check = (o: Outcome | null) => {
    requests++;
    if (!o) return;
    // 503 is the server's own "try again later", always with a sentence; everything else at 5xx is a bug.
    const detail = (() => {
      try {
        return JSON.parse(o.text).detail as unknown;
      } catch {
        return undefined;
      }
    })();
    if (o.status >= 500 && !(o.status === 503 && typeof detail === 'string' && detail !== MSG.serverError)) failures.push(o);
    else if (o.status >= 400 && typeof detail !== 'string') failures.push({ ...o, text: `no {detail}: ${o.text.slice(0, 200)}` });
  };
  let user = await funded(t, 1000);
  let admin = await makeAdmin(t, 1000);
  const identities = () => [undefined, user.key, admin.key];
  // Destructive routes last, so that the others meet a live session.
  const last = (r: Route) => /logout|delete|reset|maintenance|shutdown|kill/.test(r.path) ? 1 : 0;
  routes.sort((a, b) => last(a) - last(b));
  for (const route of routes) {
    const params = route.path.includes(':') ? ['1', ...HOSTILE_PARAMS] : [''];
    for (const key of identities()) {
      // An identity the route turns away (401, 403) before reading anything is asked once: hostile
      // input would only meet the same refusal (the body parser, global, is swept on open routes).
      const probe = await send(t, route.method, fill(route.path, '1'), key, route.method === 'GET' ? {} : { json: {} });
      check(probe);
      if (probe && (probe.status === 401 || probe.status === 403)) continue;
      for (const param of params) {
        const path = fill(route.path, param);
        if (param && !SWEPT_PARAMS.has(param)) {
          check(await send(t, route.method, path, key, route.method === 'GET' ? {} : { json: {} }));
          continue;
        }
        if (route.method === 'GET' || route.method === 'DELETE') {
          for (const q of hostileQueries(fields)) check(await send(t, route.method, `${path}?${q}`, key, {}));
        }
        if (route.method !== 'GET') {
          for (const value of values) check(await send(t, route.method, path, key, { json: Object.fromEntries(fields.map((f) => [f, value])) }));
          if (scope === 'database') continue;
          for (const json of [[], 'texte', 42, null, [{}]]) check(await send(t, route.method, path, key, { json }));
          check(await send(t, route.method, path, key, { body: fields.map((f) => `${f}=-1`).join('&'), type: 'application/x-www-form-urlencoded' }));
          check(await send(t, route.method, path, key, { body: '--x\r\nContent-Disposition: form-data; name="file"; filename="../../a.csv"\r\n\r\n1,2\r\n--x--', type: 'multipart/form-data; boundary=x' }));
        }
      }
    }
    // Hostile headers: a key, a cookie, a charset and a range no client sends.
    const path = fill(route.path, '1');
    if (scope === 'all') for (const headers of HOSTILE_HEADERS) check(await send(t, route.method, path, undefined, { headers, ...(route.method === 'GET' ? {} : { json: {} }) }));
    // A route that signs out or deletes its caller leaves the next ones without one.
    if ((await t.request('GET', '/api/me', { key: user.key })).status !== 200) user = await funded(t, 1000);
    if ((await t.request('GET', '/api/me', { key: admin.key })).status !== 200) admin = await makeAdmin(t, 1000);
  }
  return { requests, failures };
}

/** The failures, one line per route and status, and the server's log of them: an assertion's message. */
export function describeFailures(t: TestApp, { requests, failures }: SweepResult): string {
  const seen = new Set<string>();
  const distinct = failures.filter((f) => !seen.has(`${f.status} ${f.route}`) && seen.add(`${f.status} ${f.route}`));
  const summary = distinct.slice(0, 60).map((f) => `${f.status} ${f.route} ← ${f.request}\n   ${f.text.slice(0, 200)}`).join('\n');
  const logged = t.logs.filter((l) => /failed:/.test(l)).slice(0, 20).join('\n');
  return `${failures.length} of ${requests} requests failed (distinct: ${distinct.length}):\n${summary}\nserver log:\n${logged}`;
}
