import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { request as httpRequest } from 'node:http';
import { createLogger, logFunction, redactUrl } from '../src/logging/logger.js';
import { Metrics } from '../src/metrics/index.js';
import { openRedis } from '../src/redis/client.js';
import { register, startTestApp, useTestApp } from './support/app.js';
import { TEST_DIALECT, openTestDatabase } from './support/db.js';
import { freePort } from './support/redis-private.js';
import { balance, funded, runBacktest } from './support/work.js';

const lines: string[] = [];
const logger = createLogger({ destination: { write: (line: string) => void lines.push(line) } });
const metrics = new Metrics();
// As main.ts wires them: the services' log() goes through the same pino logger.
const t = useTestApp({ library: true, deps: { logger, metrics, log: logFunction(logger) } });

const entries = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

/** A GET sent as is (fetch adds nothing) from this machine, with chosen headers. */
function get(path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(t.url);
    const req = httpRequest({ host: target.hostname, port: target.port, path, headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe(`logs (${TEST_DIALECT})`, () => {
  it('a request: its JSON lines carry its id, the access line its route, status, duration and user — and no key anywhere', async () => {
    const user = await register(t);
    lines.length = 0;
    const key = user.key;
    const res = await t.request('GET', `/api/user/backtests?apiKey=${key}&token=${key}&page=1`, {
      headers: { 'x-request-id': 'lb-7f3a9c21-0001', authorization: `Bearer ${key}`, cookie: `session=${key}` },
      key,
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-request-id'), 'lb-7f3a9c21-0001');
    const mine = entries().filter((e) => e.req_id === 'lb-7f3a9c21-0001');
    const access = mine.find((e) => e.msg === 'request');
    assert.ok(access, lines.join(''));
    assert.equal(access.route, '/api/user/backtests');
    assert.equal(access.method, 'GET');
    assert.equal(access.status, 200);
    assert.equal(typeof access.duration_ms, 'number');
    assert.ok((access.duration_ms as number) >= 0);
    assert.equal(access.user_id, user.id);
    assert.equal(access.url, '/api/user/backtests?apiKey=[REDACTED]&token=[REDACTED]&page=1');
    assert.ok(!lines.join('').includes(key), 'the API key is never logged');
  });

  it('every line logged while serving a request carries its id; an id that is not sane is replaced', async () => {
    const user = await register(t);
    lines.length = 0;
    const res = await t.request('POST', '/api/auth/generate-reset-token', { json: { email: user.email }, headers: { 'x-request-id': 'no spaces <allowed>' } });
    assert.equal(res.status, 200);
    const id = res.headers.get('x-request-id')!;
    assert.match(id, /^[0-9a-f-]{36}$/);
    const logged = entries().filter((e) => e.req_id === id);
    // The service's own line (no SMTP: the reset link goes to the log) and the access line.
    assert.ok(logged.some((e) => String(e.msg).startsWith('SMTP_URL is not set: password reset link')), lines.join(''));
    assert.ok(logged.some((e) => e.msg === 'request' && e.route === '/api/auth/generate-reset-token' && e.status === 200));
    assert.ok(entries().every((e) => e.req_id === id), 'no line of this request without its id');
  });

  it('an unknown or undecodable path is logged under a fixed route label, not its own path', async () => {
    lines.length = 0;
    assert.equal((await t.request('GET', '/api/no/such/route-123')).status, 404);
    assert.equal((await t.raw('GET', '/api/%E0%A4%A')).status, 400);
    assert.deepEqual(entries().filter((e) => e.msg === 'request').map((e) => [e.route, e.status]), [['(unmatched)', 404], ['(unmatched)', 400]]);
  });

  it('the one-time token of a verification or reset link is not logged either', async () => {
    lines.length = 0;
    const secret = 'a1b2c3d4e5f6a7b8c9d0e1f2';
    await t.request('GET', `/api/auth/verify-email/${secret}`);
    await t.request('POST', `/api/auth/reset-password/${secret}?next=1`, { json: { new_password: 'nouveau-mdp-123' } });
    const urls = entries().filter((e) => e.msg === 'request').map((e) => e.url);
    assert.deepEqual(urls, ['/api/auth/verify-email/[REDACTED]', '/api/auth/reset-password/[REDACTED]?next=1']);
    assert.ok(!lines.join('').includes(secret));
    assert.equal(redactUrl('/reset-password/abc?token=x&b=2'), '/reset-password/[REDACTED]?token=[REDACTED]&b=2');
    // An OpenID Connect callback's authorization code (a credential until exchanged) and its state.
    lines.length = 0;
    const code = '4%2F0AbCdEfGh-authorization-code';
    await t.request('GET', `/api/auth/google/callback?state=st4te-v4lue-123&code=${code}&scope=openid`);
    assert.deepEqual(entries().filter((e) => e.msg === 'request').map((e) => e.url), ['/api/auth/google/callback?state=[REDACTED]&code=[REDACTED]&scope=openid']);
    assert.ok(!lines.join('').includes('authorization-code') && !lines.join('').includes('st4te-v4lue'));
    assert.equal(redactUrl('/api/things/s3cr%65t/x', { apiKey: 's3cret' }), '/api/things/[REDACTED]/x');
  });
  it('a link token in the path of a request that fails (5xx) is not in the failure line either', async () => {
    // A database of its own whose tokens table is gone: the reset and verification routes answer 500.
    const database = await openTestDatabase();
    const broken = await startTestApp(database.db);
    try {
      await database.db.sequelize.getQueryInterface().dropTable('user_tokens');
      const secret = 'f00dfeedc0ffee0123456789abcdef42';
      const reset = await broken.request('POST', `/api/auth/reset-password/${secret}`, { json: { new_password: 'nouveau-mdp-123' } });
      const verify = await broken.request('GET', `/api/auth/verify-email/${secret}`);
      assert.deepEqual([reset.status, verify.status], [500, 500]);
      const failures = broken.logs.filter((l) => / failed: /.test(l));
      assert.equal(failures.length, 2, broken.logs.join('\n'));
      assert.ok(failures[0].startsWith('POST /api/auth/reset-password/[REDACTED] failed: '), failures[0]);
      assert.ok(failures[1].startsWith('GET /api/auth/verify-email/[REDACTED] failed: '), failures[1]);
      assert.ok(!broken.logs.join('\n').includes(secret), 'the token is in no log line');
    } finally {
      await broken.close();
      await database.drop();
    }
  });
});

describe('log levels', () => {
  it('the services’ sentences: failures at error, an unavailable dependency at warn, the rest at info', () => {
    lines.length = 0;
    const log = logFunction(logger);
    log('GET /api/x failed: Error: boom');
    log('redis: connect ECONNREFUSED 127.0.0.1:1');
    log('redis: connected again');
    log('bt: listening on http://127.0.0.1:1 (Node)');
    assert.deepEqual(entries().map((e) => e.level), [50, 40, 30, 30]);
  });
});

describe(`readiness (${TEST_DIALECT})`, () => {
  it('/api/ready says ok when the database and storage answer', async () => {
    const res = await t.request('GET', '/api/ready');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ok', checks: { database: 'ok', storage: 'ok' } });
  });

  it('503 naming what is down (storage, Redis); /api/health stays 200 (liveness)', async () => {
    // A second server on the same database, whose Redis (REDIS_URL) and bucket do not answer.
    const deadRedis = await openRedis(`redis://127.0.0.1:${await freePort()}`, () => {});
    const broken = await startTestApp(t.db, {
      deps: {
        redis: deadRedis,
        storagePing: async () => {
          throw new Error('bucket unreachable');
        },
      },
    });
    try {
      const res = await broken.request('GET', '/api/ready');
      assert.equal(res.status, 503);
      assert.equal(res.body.detail, 'Serveur pas prêt : stockage des fichiers, Redis indisponibles.');
      assert.deepEqual(res.body.checks, { database: 'ok', storage: 'error', redis: 'error' });
      assert.ok(broken.logs.some((l) => l.startsWith('readiness: redis unavailable')));
      assert.equal((await broken.request('GET', '/api/health')).status, 200);
    } finally {
      await broken.close();
      deadRedis.disconnect();
    }
  });
});

describe(`metrics (${TEST_DIALECT})`, () => {
  it('/metrics: request durations by route, backtest phases, credits charged after commit, queue depth, event-loop lag', async () => {
    const trader = await funded(t, 10);
    const before = (await metrics.creditsCharged.get()).values.reduce((sum, v) => sum + v.value, 0);
    assert.equal((await runBacktest(t, trader.key)).status, 200);
    // A refused charge (not enough credits) counts nothing.
    const poor = await funded(t, 0);
    assert.equal((await runBacktest(t, poor.key)).status, 402);
    metrics.setQueueDepthSource(async () => 7);
    const res = await get('/metrics', {});
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain/);
    assert.match(res.body, /bt_http_request_duration_seconds_count\{method="POST",route="\/api\/run_backtest",status="200"\} 1/);
    assert.match(res.body, /bt_http_request_duration_seconds_count\{method="POST",route="\/api\/run_backtest",status="402"\} 1/);
    assert.match(res.body, /bt_backtest_duration_seconds_count\{phase="engine"\} 1/);
    assert.match(res.body, /bt_backtest_duration_seconds_count\{phase="total"\} 1/);
    const after = (await metrics.creditsCharged.get()).values.reduce((sum, v) => sum + v.value, 0);
    const charged = 10 - (await balance(t, trader.id));
    assert.ok(charged > 0);
    assert.equal(after - before, charged, 'what the ledger took, counted once');
    assert.match(res.body, new RegExp(`bt_credits_charged_total\\{reason="backtest"\\} ${charged}\\n`));
    assert.match(res.body, /^bt_queue_depth 7$/m);
    assert.match(res.body, /^nodejs_eventloop_lag_p99_seconds /m);
  });

  it('is not public: a proxied request is refused without METRICS_TOKEN; with one, only its bearer gets in', async () => {
    assert.equal((await get('/metrics', { 'x-forwarded-for': '203.0.113.9' })).status, 403);
    t.app.deps.config.metricsToken = 'a-long-metrics-token-123';
    try {
      assert.equal((await get('/metrics', {})).status, 401);
      assert.equal((await get('/metrics', { authorization: 'Bearer wrong-token-of-same-len' })).status, 401);
      assert.equal((await get('/metrics', { authorization: 'Bearer a-long-metrics-token-123', 'x-forwarded-for': '203.0.113.9' })).status, 200);
    } finally {
      t.app.deps.config.metricsToken = null;
    }
  });

  it('behind a declared proxy (TRUST_PROXY) loopback is no proof of a local client: the token is needed', async () => {
    // nginx's plain `proxy_pass http://127.0.0.1:8080;` adds no forwarding header: every visitor
    // then arrives from loopback as a direct client would.
    assert.equal((await get('/metrics', {})).status, 200, 'without a proxy, a loopback client gets in');
    t.app.deps.config.trustProxy = true;
    try {
      const refused = await get('/metrics', {});
      assert.equal(refused.status, 403);
      assert.match(refused.body, /METRICS_TOKEN/);
      t.app.deps.config.metricsToken = 'a-long-metrics-token-123';
      assert.equal((await get('/metrics', { authorization: 'Bearer a-long-metrics-token-123' })).status, 200);
    } finally {
      t.app.deps.config.trustProxy = false;
      t.app.deps.config.metricsToken = null;
    }
  });
});
