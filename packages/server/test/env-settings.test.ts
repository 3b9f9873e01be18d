import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { DEFAULT_RATE_LIMITS } from '../src/app/config.js';
import { readEnv } from '../src/config/env.js';
import { readOpsEnv } from '../src/config/ops-env.js';
import { readJobsEnv } from '../src/jobs/env.js';
import { readS3Env } from '../src/storage/index.js';
import { SQLITE_PASS_ONLY } from './support/db.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Every variable the server's code reads: `env.X`, `env['X']`, and the parsers' `(env, 'X')`. */
function variablesInCode(): Set<string> {
  const names = new Set<string>();
  const src = join(ROOT, 'packages/server/src');
  for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue;
    const text = readFileSync(join(src, file), 'utf8');
    for (const m of text.matchAll(/\benv\??\.([A-Z][A-Z0-9_]+)|\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]|\(env, '([A-Z][A-Z0-9_]+)'(?:, '([A-Z][A-Z0-9_]+)')?|optional\('([A-Z][A-Z0-9_]+)'\)/g)) {
      for (const name of m.slice(1)) if (name) names.add(name);
    }
  }
  // The rate limits are read by name from their keys (config/env.ts).
  for (const key of Object.keys(DEFAULT_RATE_LIMITS)) names.add(`RATE_LIMIT_${key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`);
  return names;
}

/** The names in the first column of a doc's tables of variables (`A`, `B` | …), under a heading or everywhere. */
function variablesInDoc(doc: string, heading?: string): Set<string> {
  let text = readFileSync(join(ROOT, 'docs', doc), 'utf8');
  if (heading) {
    const start = text.indexOf(`\n${heading}\n`);
    assert.ok(start >= 0, `${doc}: ${heading}`);
    const end = text.indexOf('\n## ', start + heading.length + 2);
    text = text.slice(start, end < 0 ? undefined : end);
  }
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const first = /^\| ([^|]+) \|/.exec(line)?.[1] ?? '';
    for (const m of first.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(m[1]);
  }
  return names;
}

describe('every variable documented is read, every variable read is documented', { skip: SQLITE_PASS_ONLY }, () => {
  it("docs/server.md's Environment lists every variable the server and the worker read", () => {
    const documented = variablesInDoc('server.md', '## Environment');
    // The test seams of the fault and shutdown tests, documented with the queue's variables only.
    const seams = ['BT_TEST_JOB_HOLD_MS', 'BT_TEST_START_HOLD_MS'];
    const missing = [...variablesInCode()].filter((name) => !documented.has(name) && !seams.includes(name));
    assert.deepEqual(missing, []);
    for (const seam of seams) assert.ok(variablesInDoc('queue.md').has(seam), seam);
  });

  it('no page documents a variable the server does not read', () => {
    const read = variablesInCode();
    for (const [doc, heading] of [['server.md', '## Environment'], ['deployment.md', undefined], ['payments.md', '## Environment'], ['queue.md', undefined], ['admin.md', undefined], ['security.md', undefined]] as const) {
      // security.md's tables list headers and limits as well: only names that look like ours.
      const names = [...variablesInDoc(doc, heading)].filter((n) => doc !== 'security.md' || /^(STRATEGY_|PYTHON)/.test(n));
      assert.deepEqual(names.filter((n) => !read.has(n)), [], doc);
    }
  });
});

describe('numbers, booleans and URLs are read one way everywhere', { skip: SQLITE_PASS_ONLY }, () => {
  it('integers are decimal digits: no hexadecimal, exponent, unit or sign (0x50 and 1e3 were ports)', () => {
    assert.equal(readEnv({ PORT: ' 9000 ' }).port, 9000);
    for (const port of ['0x50', '1e3', '80.0', '8080abc', '-1', '65536', '+80', '0b1010']) {
      assert.throws(() => readEnv({ PORT: port }), new RegExp(`^Error: invalid PORT: ${port.replace(/[.+]/g, '\\$&')} \\(expected an integer from 0 to 65535\\)$`));
    }
    assert.throws(() => readEnv({ UPLOAD_LIMIT_MB: '20MB' }), /invalid UPLOAD_LIMIT_MB: 20MB/);
    assert.throws(() => readEnv({ SESSION_IDLE_DAYS: '30d' }), /invalid SESSION_IDLE_DAYS: 30d/);
    assert.throws(() => readOpsEnv({ SHUTDOWN_TIMEOUT_MS: '0x10' }), /invalid SHUTDOWN_TIMEOUT_MS/);
    assert.throws(() => readOpsEnv({ SHUTDOWN_TIMEOUT_MS: '25s' }), /invalid SHUTDOWN_TIMEOUT_MS/);
    assert.throws(() => readJobsEnv({ REDIS_URL: 'redis://r:6379', JOB_TIMEOUT_MS: '1e4' }), /invalid JOB_TIMEOUT_MS: 1e4/);
    assert.throws(() => readJobsEnv({ ENGINE_THREADS: '0x2' }), /invalid ENGINE_THREADS: 0x2/);
    assert.equal(readEnv({ VAT_RATE: '5,5' }).payments.seller.vatRatePercent, 5.5);
    for (const rate of ['0x14', '2e1', '20%']) assert.throws(() => readEnv({ VAT_RATE: rate }), new RegExp(`invalid VAT_RATE: ${rate}`));
  });

  it('booleans: true/yes/on/1 and false/no/off/0 in any case, the same for every variable', () => {
    for (const value of ['true', 'TRUE', 'True', 'yes', 'YES', 'on', 'On', '1']) {
      assert.equal(readEnv({ AUTO_MIGRATE: value }).autoMigrate, true, value);
      assert.equal(readEnv({ TRUST_PROXY: value }).proxyHops, 1, value);
      assert.equal(readS3Env({ S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: value })?.forcePathStyle, true, value);
    }
    for (const value of ['false', 'FALSE', 'no', 'No', 'off', 'OFF', '0']) {
      assert.equal(readEnv({ AUTO_MIGRATE: value }).autoMigrate, false, value);
      assert.equal(readEnv({ TRUST_PROXY: value }).proxyHops, 0, value);
      assert.equal(readS3Env({ S3_BUCKET: 'b', S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: value })?.forcePathStyle, false, value);
    }
    assert.throws(() => readEnv({ AUTO_MIGRATE: 'maybe' }), /invalid AUTO_MIGRATE: maybe/);
    assert.throws(() => readEnv({ TRUST_PROXY: 'si' }), /invalid TRUST_PROXY: si/);
  });

  it("'off' in any case turns SEED_DIR and WEB_DIST off (OFF was a folder named OFF)", () => {
    for (const value of ['off', 'OFF', 'Off']) {
      const env = readEnv({ SEED_DIR: value, WEB_DIST: value }, '/srv/bt');
      assert.deepEqual([env.seedDir, env.webDist], [null, null], value);
    }
    const set = readEnv({ SEED_DIR: 'my fixtures', WEB_DIST: './web dist' }, '/srv/bt');
    assert.deepEqual([set.seedDir, set.webDist], ['/srv/bt/my fixtures', '/srv/bt/web dist']);
  });

  it('PUBLIC_URL and API_PUBLIC_URL are origins: a path, query or user is refused, the case and a trailing slash are normalised', () => {
    assert.equal(readEnv({ PUBLIC_URL: 'HTTPS://BT.Example.com/' }).publicUrl, 'https://bt.example.com');
    assert.equal(readEnv({ PUBLIC_URL: 'https://bt.example.com:8443' }).publicUrl, 'https://bt.example.com:8443');
    assert.throws(() => readEnv({ PUBLIC_URL: 'bt.example.com' }), /invalid PUBLIC_URL: bt\.example\.com \(expected an absolute http\(s\) URL\)/);
    assert.throws(() => readEnv({ PUBLIC_URL: 'localhost:8080' }), /invalid PUBLIC_URL: localhost:8080/);
    for (const [name, value] of [
      ['PUBLIC_URL', 'https://bt.example.com/app'],
      ['PUBLIC_URL', 'https://bt.example.com/?from=mail'],
      ['PUBLIC_URL', 'https://bt.example.com/#top'],
      ['API_PUBLIC_URL', 'https://api.example.com/v1/'],
    ]) {
      assert.throws(() => readEnv({ [name]: value }), new RegExp(`^Error: invalid ${name}: .* \\(expected an origin such as https://bt\\.example\\.com: no path, query or user\\)$`), value);
    }
    assert.throws(
      () => readEnv({ PUBLIC_URL: 'https://ops:hunter2@bt.example.com' }),
      (err: Error) => err.message.startsWith('invalid PUBLIC_URL: https://***@bt.example.com') && !err.message.includes('hunter2'),
    );
    // The other URLs keep their paths (an OpenAI-compatible /v1, an issuer's realm).
    assert.equal(readEnv({ LLM_BASE_URL: 'https://llm.example/v1', LLM_API_KEY: 'k', LLM_MODEL: 'm' }).llm?.baseUrl, 'https://llm.example/v1');
    assert.equal(readEnv({ GOOGLE_CLIENT_ID: 'i', GOOGLE_CLIENT_SECRET: 's', OIDC_ISSUER: 'https://sso.example/realms/bt' }).google?.issuer, 'https://sso.example/realms/bt');
  });
});

describe('a provider enabled without what it needs refuses the start', { skip: SQLITE_PASS_ONLY }, () => {
  it('live PayPal without PAYPAL_WEBHOOK_ID (pending captures never credited, refunds never verified); the sandbox may go without', () => {
    assert.throws(() => readEnv({ PAYPAL_CLIENT_ID: 'a', PAYPAL_CLIENT_SECRET: 'b' }), /^Error: missing PAYPAL_WEBHOOK_ID: live PayPal \(PAYPAL_API_BASE https:\/\/api-m\.paypal\.com\) needs its webhook's id/);
    assert.throws(() => readEnv({ PAYPAL_CLIENT_ID: 'a', PAYPAL_CLIENT_SECRET: 'b', PAYPAL_API_BASE: 'https://api-m.paypal.com/' }), /missing PAYPAL_WEBHOOK_ID/);
    assert.equal(readEnv({ PAYPAL_CLIENT_ID: 'a', PAYPAL_CLIENT_SECRET: 'b', PAYPAL_WEBHOOK_ID: '1JE4291016473214C' }).payments.paypal?.webhookId, '1JE4291016473214C');
    assert.equal(readEnv({ PAYPAL_CLIENT_ID: 'a', PAYPAL_CLIENT_SECRET: 'b', PAYPAL_API_BASE: 'https://api-m.sandbox.paypal.com' }).payments.paypal?.webhookId, null);
    // Stripe's and NOWPayments' webhook secrets come with their keys or not at all.
    assert.throws(() => readEnv({ STRIPE_SECRET_KEY: 'sk_live_x' }), /invalid STRIPE_SECRET_KEY \/ STRIPE_WEBHOOK_SECRET: set both or neither/);
    assert.throws(() => readEnv({ NOWPAYMENTS_API_KEY: 'k' }), /invalid NOWPAYMENTS_API_KEY \/ NOWPAYMENTS_IPN_SECRET: set both or neither/);
  });
});
