/**
 * Deno smoke suite: the same src/main.ts, started by `deno run -A` (deno from npm), on a fresh
 * MariaDB database, answers over HTTP: health, register, login, me, admin ping, verification.
 *
 * Deno ignores the `@bt/source` export condition, so `@bt/core` resolves to packages/core/dist:
 * build core first (`npm run build -w @bt/core`; the root `npm test` does).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { SIGNUP_CREDITS } from '@bt/core/catalogue';
import { createTestDatabaseUrl } from '../test/support/db.js';
import { rawConnection, UNFINISHED_HEAD, wholeHead } from '../test/support/raw-http.js';
import { startNowPaymentsServer, type NowPaymentsServer } from '../test/support/nowpayments-server.js';
import { startStripeServer, type StripeServer } from '../test/support/stripe-server.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const deno = join(root, 'node_modules', '.bin', 'deno');
const ADMIN = { email: 'ops@bt.test', password: 'smoke-admin-password' };

let server: ChildProcess;
let userKey = '';
let base = '';
let output = '';
let dataDir: string;
let denoDir: string;
let drop: () => Promise<void>;
let stripe: StripeServer;
let nowpayments: NowPaymentsServer;
const STRIPE = { secretKey: 'sk_test_deno', webhookSecret: 'whsec_deno' };
const NOWPAYMENTS = { apiKey: 'np-deno', ipnSecret: 'np-deno-ipn' };

before(async () => {
  assert.ok(existsSync(deno), `deno is not installed at ${deno} (npm ci installs the deno package)`);
  assert.ok(
    existsSync(join(root, 'packages', 'core', 'dist', 'catalogue', 'index.js')),
    'packages/core/dist is missing: Deno loads @bt/core from dist, run `npm run build -w @bt/core` first',
  );
  // Payments through the local Stripe and NOWPayments: the Stripe SDK's Deno build (fetch, Web Crypto).
  stripe = await startStripeServer(STRIPE);
  nowpayments = await startNowPaymentsServer(NOWPAYMENTS);
  const database = await createTestDatabaseUrl('mysql');
  drop = database.drop;
  dataDir = mkdtempSync(join(tmpdir(), 'bt-deno-smoke-'));
  // An empty DENO_DIR makes every run a first start, the one a module-sync require hung
  // (docs/server.md, "Deno"); the closed network here also rules out the upgrade check.
  denoDir = mkdtempSync(join(tmpdir(), 'bt-deno-dir-'));
  server = spawn(deno, ['run', '-A', 'packages/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      DENO_DIR: denoDir,
      DENO_NO_UPDATE_CHECK: '1',
      HOST: '127.0.0.1',
      PORT: '0',
      PUBLIC_URL: 'http://web.bt.test',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SMTP_URL: '',
      NO_COLOR: '1',
      // The local-install setting of `npm start`: the on-screen link grants the sign-up credits.
      VERIFY_ON_SCREEN: 'credits',
      STRIPE_SECRET_KEY: STRIPE.secretKey,
      STRIPE_WEBHOOK_SECRET: STRIPE.webhookSecret,
      STRIPE_API_BASE: stripe.base,
      NOWPAYMENTS_API_KEY: NOWPAYMENTS.apiKey,
      NOWPAYMENTS_IPN_SECRET: NOWPAYMENTS.ipnSecret,
      NOWPAYMENTS_API_BASE: nowpayments.base,
      MAX_CONNECTIONS_PER_IP: '16',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (chunk) => (output += chunk));
  server.stderr!.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 120_000;
  while (!base) {
    const match = /listening on (http:\/\/127\.0\.0\.1:\d+) \(Deno/.exec(output);
    if (match) base = match[1];
    else if (server.exitCode !== null) throw new Error(`deno exited with ${server.exitCode}:\n${output}`);
    else if (Date.now() > deadline) throw new Error(`deno did not start within 120 s:\n${output}`);
    else await new Promise((r) => setTimeout(r, 100));
  }
  stripe.setWebhook(`${base}/api/payment/stripe/webhook`);
});

after(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (server.exitCode === null) server.kill('SIGKILL');
  }
  await drop?.();
  await Promise.all([stripe?.close(), nowpayments?.close()]);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  if (denoDir) rmSync(denoDir, { recursive: true, force: true });
});

async function call(method: string, path: string, options: { json?: unknown; key?: string } = {}) {
  const headers: Record<string, string> = {};
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  if (options.key) headers['x-api-key'] = options.key;
  const res = await fetch(base + path, { method, headers, body: options.json === undefined ? undefined : JSON.stringify(options.json), redirect: 'manual' });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

describe('Deno smoke: src/main.ts under deno run -A on MariaDB', () => {
  it('health says Deno and MySQL', async () => {
    const res = await call('GET', '/api/health');
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'ok');
    assert.equal(res.body.runtime, 'deno');
    assert.equal(res.body.dialect, 'mysql');
    assert.match(output, /admin account created: ops@bt\.test/);
  });

  it('register, login, me, verification, admin ping', async () => {
    const person = { first_name: 'Deno', last_name: 'Smoke', email: 'deno.smoke@example.com', username: 'denosmoke', password: 'deno-smoke-123' };
    const reg = await call('POST', '/api/register', { json: person });
    assert.equal(reg.status, 201);
    assert.equal(reg.body.status, 'success');
    assert.ok(reg.body.verifyUrl);

    const bad = await call('POST', '/api/login', { json: { identifier: person.email, password: 'wrong-password' } });
    assert.equal(bad.status, 401);
    assert.deepEqual(bad.body, { detail: 'Identifiants invalides' });
    const login = await call('POST', '/api/login', { json: { identifier: person.username, password: person.password } });
    assert.equal(login.status, 200);
    const key = login.body.token;

    const me = await call('GET', '/api/me', { key });
    assert.equal(me.status, 200);
    assert.equal(me.body.email, person.email);
    assert.equal(me.body.credits, 0);

    const verify = await fetch(reg.body.verifyUrl.replace('http://web.bt.test', base), { redirect: 'manual' });
    assert.equal(verify.status, 302);
    assert.equal(verify.headers.get('location'), 'http://web.bt.test/profile?verified=1');
    const verified = await call('GET', '/api/me', { key });
    assert.equal(verified.body.email_verified, true);
    assert.equal(verified.body.credits, SIGNUP_CREDITS);
    userKey = key;

    assert.equal((await call('GET', '/api/admin/ping', { key })).status, 403);
    const admin = await call('POST', '/api/login', { json: { identifier: ADMIN.email, password: ADMIN.password } });
    assert.equal(admin.status, 200);
    const ping = await call('GET', '/api/admin/ping', { key: admin.body.token });
    assert.equal(ping.status, 200);
    assert.equal(ping.body.admin, true);
  });

  it('working area: library seeded on first start, a backtest and its workbook, a .py import through the sandbox', async () => {
    assert.match(output, /library seeded from .*fixtures: 823 month files/);
    const library = await call('GET', '/api/list_csv_library?symbol=EURUSD&timeframe=H1');
    assert.equal(library.body.total, 24);
    const run = await call('POST', '/api/run_backtest', {
      key: userKey,
      json: { strategy: 'englobante_entry', symbol: 'EURUSD', timeframe: 'H1', start_date: '2023-01-01', end_date: '2023-01-31', sl_pips: 10, tp1_pips: 10 },
    });
    assert.equal(run.status, 200, JSON.stringify(run.body));
    assert.equal(run.body.credits_remaining, 0);
    const workbook = await fetch(`${base}/api/download/${run.body.xlsx_filename}?folder=${run.body.folder}&apiKey=${userKey}`);
    assert.equal(workbook.status, 200);
    assert.equal(new TextDecoder().decode((await workbook.arrayBuffer()).slice(0, 2)), 'PK');
    const form = new FormData();
    form.append('file', new Blob(['def detect_smoke(candles, params):\n    return [{"index": 10, "side": "buy"}]\n']), 'smoke.py');
    const imported = await fetch(`${base}/api/user/strategies/import`, { method: 'POST', headers: { 'x-api-key': userKey }, body: form });
    const answer = (await imported.json()) as { strategy: { detect_function: string } };
    assert.equal(imported.status, 201, JSON.stringify(answer));
    assert.equal(answer.strategy.detect_function, 'detect_smoke');
  });

  it('payments: a Stripe Checkout pack credited by its signed webhook, a crypto pack by its IPN, the invoice PDF', async () => {
    const session = await call('POST', '/api/payment/stripe/session', { key: userKey, json: { offer_id: 'CREDIT_10', user_token: userKey } });
    assert.equal(session.status, 200, JSON.stringify(session.body));
    const { deliveries } = await stripe.complete(session.body.id);
    assert.deepEqual(deliveries.map((d) => d.status), [200]);
    const order = await call('POST', '/api/payment/crypto/create-order', { key: userKey, json: { offer_id: 'CREDIT_20' } });
    assert.equal(order.status, 200, JSON.stringify(order.body));
    // API_PUBLIC_URL is the web app's made-up host here: the IPN goes to the server itself.
    assert.equal(nowpayments.invoices.get(order.body.id)!.ipn_callback_url, 'http://web.bt.test/api/payment/crypto/ipn');
    assert.equal((await nowpayments.notify(order.body.id, 'finished', { target: `${base}/api/payment/crypto/ipn` })).status, 200);
    const me = await call('GET', '/api/me', { key: userKey });
    assert.equal(me.body.credits, 12 + 25);
    const invoice = await fetch(`${base}${me.body.purchase_history[0].invoice.url}?token=${userKey}`);
    assert.equal(invoice.status, 200);
    assert.equal(new TextDecoder().decode((await invoice.arrayBuffer()).slice(0, 5)), '%PDF-');
  });

  it('the per-address connection cap holds under Deno too (MAX_CONNECTIONS_PER_IP=16)', async () => {
    // Requests that never finish their head; this client's own keep-alive connections count too.
    const held = Array.from({ length: 16 }, () => rawConnection(base, UNFINISHED_HEAD).socket);
    await new Promise((r) => setTimeout(r, 300));
    const refused = rawConnection(base, wholeHead('/api/health'));
    await refused.closed;
    assert.match(refused.answer(), /^HTTP\/1\.1 429 [^]*"detail":"Trop de connexions ouvertes depuis ton adresse\./, refused.answer());
    for (const socket of held) socket.destroy();
    const deadline = Date.now() + 10_000;
    while ((await fetch(`${base}/api/health`)).status !== 200) {
      assert.ok(Date.now() < deadline, 'the places held are freed when the connections close');
      await new Promise((r) => setTimeout(r, 50));
    }
  });
});
