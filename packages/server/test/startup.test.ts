import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readEnv } from '../src/config/env.js';
import { ManualClock } from '../src/clock/index.js';
import { migrator, openDatabase, parseDatabaseUrl, type Database } from '../src/db/index.js';
import { migrations } from '../src/db/migrations/index.js';
import { verifyPassword } from '../src/auth/secrets.js';
import { ensureAdmin } from '../src/users/bootstrap.js';
import { TEST_DIALECT, createTestDatabaseUrl } from './support/db.js';
import { tmpdir } from 'node:os';

let db: Database;
let drop: () => Promise<void>;

before(async () => {
  const target = await createTestDatabaseUrl();
  drop = target.drop;
  db = await openDatabase(target.url, { dataDir: tmpdir() });
});
after(async () => {
  await db.close();
  await drop();
});

const TABLES = ['admin_settings', 'api_keys', 'backtest_runs', 'credit_ledger', 'credit_notes', 'dataset_journal', 'datasets', 'email_recreations', 'events', 'invoice_counters', 'invoices', 'maintenance_leases', 'oidc_codes', 'oidc_states', 'payment_attention', 'payments', 'schema_migrations', 'storage_removals', 'strategy_archive', 'support_messages', 'user_csvs', 'user_identities', 'user_strategies', 'user_tokens', 'users'];

async function tables(): Promise<string[]> {
  const names = (await db.sequelize.getQueryInterface().showAllTables()) as unknown[];
  return names.map((n) => (typeof n === 'string' ? n : (n as { tableName: string }).tableName)).filter((n) => n !== 'sqlite_sequence').sort();
}

describe(`migrations and first start (${TEST_DIALECT})`, () => {
  it('creates every table from an empty database, and rolls back and forth', async () => {
    const m = migrator(db.sequelize);
    assert.deepEqual((await m.pending()).map((x) => x.name), migrations.map((x) => x.name));
    assert.deepEqual(migrations.slice(0, 4).map((x) => x.name), ['0001-accounts', '0002-working-area', '0003-sessions', '0004-payments']);
    await m.up();
    assert.deepEqual(await tables(), TABLES);
    assert.deepEqual(await m.pending(), []);
    await m.down({ to: 0 });
    assert.deepEqual(await tables(), ['schema_migrations']);
    await m.up();
    assert.deepEqual(await tables(), TABLES);
  });

  it('creates the admin from ADMIN_EMAIL / ADMIN_PASSWORD once, then leaves it alone', async () => {
    const printed: string[] = [];
    const clock = new ManualClock();
    const first = await ensureAdmin(db, clock, { email: 'ops@bt.test', password: 'admin-password-1', username: 'ops' }, (m) => printed.push(m));
    assert.equal(first.created, true);
    assert.equal(first.generatedPassword, undefined);
    assert.ok(!printed.join('\n').includes('admin-password-1'), 'a given password is never printed');
    const admin = await db.models.User.findOne({ where: { email: 'ops@bt.test' } });
    assert.equal(admin?.role, 'admin');
    assert.equal(admin?.emailVerified, true);
    assert.ok(await verifyPassword('admin-password-1', admin?.passwordHash));
    const second = await ensureAdmin(db, clock, { email: 'other@bt.test', password: 'another-password', username: 'other' }, (m) => printed.push(m));
    assert.equal(second.created, false);
    assert.equal(await db.models.User.count({ where: { role: 'admin' } }), 1);
  });

  it('generates and prints a password once when ADMIN_PASSWORD is not set', async () => {
    await db.models.User.update({ role: 'user' }, { where: { role: 'admin' } });
    const printed: string[] = [];
    const result = await ensureAdmin(db, new ManualClock(), { email: 'admin2@bt.test', password: null, username: 'admin2' }, (m) => printed.push(m));
    assert.equal(result.created, true);
    assert.ok(result.generatedPassword && result.generatedPassword.length >= 12);
    assert.equal(printed.filter((l) => l.includes(result.generatedPassword!)).length, 1);
    const admin = await db.models.User.findOne({ where: { email: 'admin2@bt.test' } });
    assert.ok(await verifyPassword(result.generatedPassword!, admin?.passwordHash));
  });

  it('refuses to promote an existing account that holds ADMIN_EMAIL', async () => {
    await db.models.User.update({ role: 'user' }, { where: { role: 'admin' } });
    await assert.rejects(
      ensureAdmin(db, new ManualClock(), { email: 'ops@bt.test', password: 'admin-password-1', username: 'ops2' }, () => {}),
      /belongs to an existing user/,
    );
  });

  it('starts when a user holds the admin username (the admin deleted, the name taken): the admin takes the next free name', async () => {
    // Before the fix the start failed on the unique index and the server never came up.
    await db.models.User.update({ role: 'user' }, { where: { role: 'admin' } });
    const now = new Date();
    const squatter = await db.models.User.create({ email: 'squat@bt.test', username: 'admin', firstName: 'S', lastName: 'Q', passwordHash: null, role: 'user', plan: 'free', credits: 0, emailVerified: true, createdAt: now, updatedAt: now });
    await db.models.User.create({ email: 'squat2@bt.test', username: 'admin-2', firstName: 'S', lastName: 'Q', passwordHash: null, role: 'user', plan: 'free', credits: 0, emailVerified: true, createdAt: now, updatedAt: now });
    const printed: string[] = [];
    const result = await ensureAdmin(db, new ManualClock(), { email: 'root@bt.test', password: 'admin-password-3', username: 'admin' }, (m) => printed.push(m));
    assert.equal(result.created, true);
    const admin = await db.models.User.findOne({ where: { email: 'root@bt.test' } });
    assert.equal(admin?.role, 'admin');
    assert.equal(admin?.username, 'admin-3');
    assert.ok(printed.some((l) => l.includes('admin-3') && l.includes('belongs to an existing user')), printed.join('\n'));
    // The user keeps their account and name, and is not promoted.
    const kept = await db.models.User.findByPk(squatter.id);
    assert.equal(kept?.username, 'admin');
    assert.equal(kept?.role, 'user');
  });
});

describe('environment', () => {
  it('defaults to SQLite under DATA_DIR and reads the documented variables', () => {
    const env = readEnv({}, '/srv/bt');
    assert.equal(env.dataDir, '/srv/bt/data');
    assert.equal(env.databaseUrl, undefined);
    assert.deepEqual(parseDatabaseUrl(env.databaseUrl, env.dataDir), { dialect: 'sqlite', url: 'sqlite:', storage: '/srv/bt/data/bt.sqlite' });
    assert.equal(env.port, 8080);
    assert.equal(env.publicUrl, 'http://localhost:8080');
    assert.equal(env.google, null);
    // The per-address connection cap: 128, off behind a proxy (docs/security.md "Connections").
    assert.deepEqual(env.connections, { perAddress: 128, total: 10_000 });
    assert.deepEqual(readEnv({ TRUST_PROXY: 'true', MAX_CONNECTIONS_PER_IP: '16' }).connections, { perAddress: 0, total: 10_000 });
    assert.deepEqual(readEnv({ MAX_CONNECTIONS_PER_IP: '16', MAX_CONNECTIONS: '500' }).connections, { perAddress: 16, total: 500 });
    const full = readEnv(
      {
        DATABASE_URL: 'mysql://bt:secret@db:3306/bt',
        DATA_DIR: '/var/lib/bt',
        PORT: '9000',
        PUBLIC_URL: 'https://bt.example/',
        SMTP_URL: 'smtp://mail:25',
        GOOGLE_CLIENT_ID: 'id',
        GOOGLE_CLIENT_SECRET: 'secret',
        OIDC_ISSUER: 'https://issuer.example',
        ADMIN_EMAIL: 'Ops@BT.example',
        ADMIN_PASSWORD: 'long-enough',
      },
      '/',
    );
    assert.equal(full.port, 9000);
    assert.equal(full.publicUrl, 'https://bt.example');
    assert.equal(full.apiUrl, 'https://bt.example');
    assert.deepEqual(full.google, { clientId: 'id', clientSecret: 'secret', issuer: 'https://issuer.example' });
    assert.equal(full.admin.email, 'ops@bt.example');
    assert.equal(parseDatabaseUrl(full.databaseUrl, full.dataDir).dialect, 'mysql');
    assert.equal(parseDatabaseUrl('mariadb://root@127.0.0.1/bt', '/x').url, 'mysql://root@127.0.0.1/bt');
  });

  it('names the variable and the value it cannot use', () => {
    assert.throws(() => readEnv({ PORT: 'huit' }), /invalid PORT: huit/);
    assert.throws(() => readEnv({ PUBLIC_URL: 'ftp://x' }), /invalid PUBLIC_URL: ftp:\/\/x/);
    assert.throws(() => readEnv({ SMTP_URL: 'mail.example' }), /invalid SMTP_URL/);
    // A refused URL is named without its password: the message is the start's fatal log line.
    assert.throws(() => readEnv({ SMTP_URL: 'smpt://bt:hunter2-smtp@mail.example:587' }), (err: Error) => err.message.startsWith('invalid SMTP_URL: smpt://***@mail.example:587 ') && !err.message.includes('hunter2'));
    assert.throws(() => parseDatabaseUrl('postgres://bt:hunter2-db@db:5432/bt', '/d'), (err: Error) => err.message.startsWith('invalid DATABASE_URL: postgres://***@db:5432/bt ') && !err.message.includes('hunter2'));
    assert.throws(() => readEnv({ GOOGLE_CLIENT_ID: 'only-id' }), /GOOGLE_CLIENT_SECRET/);
    assert.throws(() => parseDatabaseUrl('postgres://x', '/d'), /invalid DATABASE_URL: postgres:\/\/x/);
    assert.throws(() => parseDatabaseUrl('sqlite::memory:', '/d'), /in-memory/);
    assert.throws(() => readEnv({ LLM_BASE_URL: 'http://llm.local/v1' }), /set all three or none/);
    assert.throws(() => readEnv({ UPLOAD_LIMIT_MB: '0' }), /invalid UPLOAD_LIMIT_MB: 0/);
    assert.throws(() => readEnv({ MAX_CONNECTIONS: '0' }), /invalid MAX_CONNECTIONS: 0 \(expected an integer from 1 to 1000000\)/);
  });

  it('reads the working-area variables (library seed, upload limit, Python sandbox, chat model)', () => {
    const env = readEnv({}, '/srv/bt');
    assert.match(env.seedDir ?? '', /fixtures$/);
    assert.equal(env.uploadLimitBytes, 20 * 1024 * 1024);
    assert.equal(env.topMinTrades, 20);
    assert.equal(env.topCacheMs, 10_000);
    assert.equal(readEnv({ TOP_CACHE_SECONDS: '0' }, '/').topCacheMs, 0);
    assert.throws(() => readEnv({ TOP_CACHE_SECONDS: '-1' }), /invalid TOP_CACHE_SECONDS: -1/);
    assert.throws(() => readEnv({ TOP_CACHE_SECONDS: '3601' }), /invalid TOP_CACHE_SECONDS: 3601/);
    assert.equal(env.python, '/usr/bin/python3');
    assert.deepEqual(env.strategy, { cpuSeconds: 10, memoryBytes: 768 * 1024 * 1024, wallMs: 20_000, concurrency: 2 });
    assert.equal(env.llm, null);
    const set = readEnv({ SEED_DIR: 'off', UPLOAD_LIMIT_MB: '50', PYTHON: '/usr/bin/python3', STRATEGY_CPU_SECONDS: '5', LLM_BASE_URL: 'https://api.example/v1/', LLM_API_KEY: 'k', LLM_MODEL: 'm' }, '/');
    assert.equal(set.seedDir, null);
    assert.equal(set.uploadLimitBytes, 50 * 1024 * 1024);
    assert.equal(set.strategy.cpuSeconds, 5);
    assert.deepEqual(set.llm, { baseUrl: 'https://api.example/v1', apiKey: 'k', model: 'm' });
  });

  it('reads the sandbox isolation variables (bubblewrap, the unprivileged ids), never uid 0', () => {
    assert.deepEqual(readEnv({}, '/').isolation, { bwrap: '/usr/bin/bwrap', uid: 65534, gid: 65534 });
    assert.deepEqual(readEnv({ STRATEGY_BWRAP: '/opt/bwrap', STRATEGY_SANDBOX_UID: '60000', STRATEGY_SANDBOX_GID: '60001' }, '/').isolation, { bwrap: '/opt/bwrap', uid: 60000, gid: 60001 });
    assert.throws(() => readEnv({ STRATEGY_SANDBOX_UID: '0' }), /invalid STRATEGY_SANDBOX_UID: 0/);
    assert.throws(() => readEnv({ STRATEGY_SANDBOX_GID: 'nobody' }), /invalid STRATEGY_SANDBOX_GID: nobody/);
  });

  it('reads the payment providers (pairs of secrets), the seller and VAT of invoices', () => {
    const none = readEnv({}, '/srv/bt').payments;
    assert.deepEqual([none.stripe, none.paypal, none.nowpayments], [null, null, null]);
    assert.deepEqual([none.seller.vatRatePercent, none.seller.vatNote, none.seller.invoicePrefix], [0, 'TVA non applicable, art. 293 B du CGI', 'BT-']);
    const set = readEnv(
      {
        STRIPE_SECRET_KEY: 'sk_live_x',
        STRIPE_WEBHOOK_SECRET: 'whsec_x',
        STRIPE_API_BASE: 'http://127.0.0.1:12111/',
        PAYPAL_CLIENT_ID: 'id',
        PAYPAL_CLIENT_SECRET: 'secret',
        PAYPAL_API_BASE: 'https://api-m.sandbox.paypal.com',
        PAYPAL_WEBHOOK_ID: '1JE4291016473214C',
        NOWPAYMENTS_API_KEY: 'np',
        NOWPAYMENTS_IPN_SECRET: 'ipn',
        SELLER_NAME: 'bt SAS',
        SELLER_ADDRESS: '12 rue des Bougies | 75002 Paris',
        VAT_RATE: '20',
        INVOICE_PREFIX: 'F2026-',
      },
      '/',
    ).payments;
    assert.deepEqual(set.stripe, { secretKey: 'sk_live_x', webhookSecret: 'whsec_x', apiBase: 'http://127.0.0.1:12111' });
    assert.deepEqual(set.paypal, { clientId: 'id', clientSecret: 'secret', apiBase: 'https://api-m.sandbox.paypal.com', webhookId: '1JE4291016473214C' });
    assert.equal(readEnv({ PAYPAL_CLIENT_ID: 'a', PAYPAL_CLIENT_SECRET: 'b', PAYPAL_API_BASE: 'https://api-m.sandbox.paypal.com' }, '/').payments.paypal?.webhookId, null);
    assert.throws(() => readEnv({ PAYPAL_WEBHOOK_ID: '1JE4291016473214C' }), /invalid PAYPAL_WEBHOOK_ID: set PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET too/);
    assert.throws(() => readEnv({ PAYPAL_CLIENT_ID: 'a', PAYPAL_CLIENT_SECRET: 'b', PAYPAL_WEBHOOK_ID: 'a b' }), /invalid PAYPAL_WEBHOOK_ID: a b/);
    assert.deepEqual(set.nowpayments, { apiKey: 'np', ipnSecret: 'ipn', apiBase: 'https://api.nowpayments.io' });
    assert.deepEqual([set.seller.name, set.seller.address, set.seller.vatRatePercent, set.seller.vatNote, set.seller.invoicePrefix], ['bt SAS', ['12 rue des Bougies', '75002 Paris'], 20, null, 'F2026-']);
    assert.throws(() => readEnv({ STRIPE_SECRET_KEY: 'sk' }), /STRIPE_SECRET_KEY \/ STRIPE_WEBHOOK_SECRET: set both or neither/);
    assert.throws(() => readEnv({ PAYPAL_CLIENT_SECRET: 's' }), /PAYPAL_CLIENT_ID \/ PAYPAL_CLIENT_SECRET/);
    assert.throws(() => readEnv({ NOWPAYMENTS_API_KEY: 'k' }), /NOWPAYMENTS_IPN_SECRET/);
    assert.throws(() => readEnv({ VAT_RATE: 'vingt' }), /invalid VAT_RATE: vingt/);
    assert.throws(() => readEnv({ INVOICE_PREFIX: '../x' }), /invalid INVOICE_PREFIX/);
    assert.throws(() => readEnv({ PAYPAL_CLIENT_ID: 'a', PAYPAL_CLIENT_SECRET: 'b', PAYPAL_API_BASE: 'ftp://x' }), /invalid PAYPAL_API_BASE/);
  });
});
