import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashPassword, OWASP_SCRYPT } from '../src/auth/secrets.js';
import { newPerson, register, startTestApp, useTestApp, type TestApp } from './support/app.js';
import { openTestDatabase, TEST_DIALECT, type TestDatabase } from './support/db.js';
import { funded, OFFICIAL_RUN } from './support/work.js';

const DAY = 24 * 3600_000;
const t = useTestApp({ library: true, config: { sessionIdleMs: 30 * DAY } });

describe(`sessions: logout, idle expiry, query-string keys (${TEST_DIALECT})`, () => {
  it('POST /api/logout ends that key on the server at once; the user’s other sessions go on', async () => {
    const user = await register(t);
    const other = await t.request('POST', '/api/login', { json: { identifier: user.email, password: user.password } });
    assert.equal(other.status, 200);
    const out = await t.request('POST', '/api/logout', { key: user.key });
    assert.equal(out.status, 200);
    assert.deepEqual(out.body, { status: 'success', message: 'Déconnexion réussie.' });
    const after = await t.request('GET', '/api/me', { key: user.key });
    assert.equal(after.status, 401);
    assert.deepEqual(after.body, { detail: 'Clé API invalide ou expirée.' });
    assert.equal((await t.request('GET', '/api/me', { key: other.body.token })).status, 200);
    // Logging out twice, or without a key, is a plain 401.
    assert.equal((await t.request('POST', '/api/logout', { key: user.key })).status, 401);
    assert.equal((await t.request('POST', '/api/logout')).status, 401);
  });

  it('a key unused for longer than the idle limit is refused and deleted; one in use stays alive', async () => {
    const idle = await register(t);
    const busy = await register(t);
    for (let day = 0; day < 40; day += 10) {
      t.clock.advance(10 * DAY);
      assert.equal((await t.request('GET', '/api/me', { key: busy.key })).status, 200, `busy key on day ${day + 10}`);
    }
    const res = await t.request('GET', '/api/me', { key: idle.key });
    assert.equal(res.status, 401);
    assert.equal(await t.db.models.ApiKey.count({ where: { userId: idle.id } }), 0, 'the expired key row is gone');
    // Signing in again gives a fresh key.
    const again = await t.request('POST', '/api/login', { json: { identifier: idle.username, password: idle.password } });
    assert.equal((await t.request('GET', '/api/me', { key: again.body.token })).status, 200);
  });

  it('takes a key from the query string only on download links', async () => {
    const user = await funded(t, 10);
    const run = await t.request('POST', '/api/run_backtest', { key: user.key, json: OFFICIAL_RUN });
    assert.equal(run.status, 200, run.text);
    const folder = run.body.xlsx_result.split('/').at(-2);
    const link = `/api/download/${folder}.xlsx?folder=${folder}&apiKey=${encodeURIComponent(user.key)}`;
    const download = await t.request('GET', link);
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-type'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const viaToken = await t.request('GET', `/api/download/${folder}.xlsx?folder=${folder}&token=${encodeURIComponent(user.key)}`);
    assert.equal(viaToken.status, 200);
    for (const path of ['/api/me', '/api/user/backtests', '/api/user/strategies', `/api/user/backtests/xlsx/meta?folder=${folder}`]) {
      const sep = path.includes('?') ? '&' : '?';
      const res = await t.request('GET', `${path}${sep}apiKey=${encodeURIComponent(user.key)}`);
      assert.equal(res.status, 401, path);
    }
    const spend = await t.request('POST', `/api/run_backtest?apiKey=${encodeURIComponent(user.key)}`, { json: OFFICIAL_RUN });
    assert.equal(spend.status, 401, 'a paid action never takes its key from the address');
  });
});

describe(`passwords at OWASP's scrypt cost, old hashes upgraded at login (${TEST_DIALECT})`, () => {
  let db: TestDatabase;
  let prod: TestApp;
  before(async () => {
    db = await openTestDatabase();
    // The production default cost (the other test files use a cheaper one).
    prod = await startTestApp(db.db, { config: { passwordCost: OWASP_SCRYPT } });
  });
  after(async () => {
    await prod.close();
    await db.drop();
  });

  it('hashes new passwords with N = 2^17, r = 8, p = 1', async () => {
    const user = await register(prod);
    const row = await db.db.models.User.findByPk(user.id);
    assert.match(row!.passwordHash!, /^scrypt\$131072\$8\$1\$/);
  });

  it('replaces a weaker hash at the next successful login, and only then', async () => {
    const person = newPerson();
    const user = await register(prod, person);
    const weak = await hashPassword(person.password, { logN: 14, r: 8, p: 1 });
    await db.db.models.User.update({ passwordHash: weak }, { where: { id: user.id } });
    const wrong = await prod.request('POST', '/api/login', { json: { identifier: person.email, password: 'not-the-password' } });
    assert.equal(wrong.status, 401);
    assert.equal((await db.db.models.User.findByPk(user.id))!.passwordHash, weak, 'a failed login changes nothing');
    const ok = await prod.request('POST', '/api/login', { json: { identifier: person.email, password: person.password } });
    assert.equal(ok.status, 200);
    const upgraded = (await db.db.models.User.findByPk(user.id))!.passwordHash!;
    assert.match(upgraded, /^scrypt\$131072\$8\$1\$/);
    assert.equal((await prod.request('POST', '/api/login', { json: { identifier: person.username, password: person.password } })).status, 200);
  });
});

describe(`security headers (${TEST_DIALECT})`, () => {
  it('every answer forbids framing, sends no referrer and carries the app’s CSP', async () => {
    for (const [method, path] of [['GET', '/api/health'], ['GET', '/api/nothing'], ['POST', '/api/login'], ['GET', '/API/%E0%A4%A']] as const) {
      const res = method === 'GET' && path.includes('%') ? await t.raw(method, path) : await t.request(method, path, method === 'POST' ? { json: {} } : {});
      assert.equal(res.headers.get('x-frame-options'), 'DENY', path);
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer', path);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', path);
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.match(csp, /frame-ancestors 'none'/, path);
      assert.match(csp, /script-src 'self'(;|$)/, path);
      assert.match(csp, /object-src 'none'/, path);
      assert.equal(res.headers.get('strict-transport-security'), null, 'no HSTS on an http deployment');
    }
  });
});

describe(`bad input is a 400, never a 500 (${TEST_DIALECT})`, () => {
  it('refuses out-of-range, non-numeric and list-valued stops and targets before charging', async () => {
    const user = await funded(t, 10);
    const cases: Record<string, unknown>[] = [
      { sl_pips: 1e308 },
      { sl_pips: '1e308' },
      { tp1_pips: 1e7 },
      { tp2_pips: 'NaN' },
      { sl_pips: 'Infinity' },
      { sl_pips: -5 },
      { sl_pips: [10, 20] },
      { sl_pips: { value: 10 } },
      { symbol: ['EURUSD', 'GBPUSD'] },
      { timeframe: { tf: 'M15' } },
      { start_date: ['2023-01-01'] },
    ];
    for (const change of cases) {
      const res = await t.request('POST', '/api/run_backtest', { key: user.key, json: { ...OFFICIAL_RUN, ...change } });
      assert.equal(res.status, 400, `${JSON.stringify(change)}: ${res.text}`);
      assert.ok(res.body.detail, JSON.stringify(change));
    }
    const listInQuery = await t.request('GET', '/api/pip?symbol=EURUSD&symbol=GBPUSD');
    assert.equal(listInQuery.status, 400);
    assert.match(listInQuery.body.detail, /une seule valeur/);
    assert.equal((await t.request('GET', '/api/me', { key: user.key })).body.credits, 10);
  });

  it('answers every strategy parameter value it cannot use with a 400, and never a 500', async () => {
    const user = await funded(t, 400);
    const hostile: unknown[] = [1e308, -1e308, 'NaN', -1, [1, 2], { a: 1 }, 'x'.repeat(5000), true, null];
    const names = ['min_wait_candles', 'max_wait_candles', 'allow_multiple_entries', 'min_overlap_ratio', 'rsi_threshold', 'rsi_key', 'ema_fast', 'ema_slow', 'min_pips', 'max_touch', 'confirm_candle'];
    const short = { start_date: '2023-01-02', end_date: '2023-01-03' };
    for (const name of names) {
      for (const value of hostile) {
        const strategy = /rsi/.test(name) ? 'fvg_pullback_multi_rsi' : /ema/.test(name) ? 'fvg_pullback_tendance_ema' : 'fvg_pullback_multi';
        const res = await t.request('POST', '/api/run_backtest', { key: user.key, json: { ...OFFICIAL_RUN, ...short, strategy, params: { [name]: value } } });
        assert.ok(res.status === 200 || res.status === 400 || res.status === 402, `${name}=${JSON.stringify(value).slice(0, 30)}: ${res.status} ${res.text.slice(0, 200)}`);
        if (res.status === 400) assert.ok(typeof res.body.detail === 'string' && res.body.detail.length > 0);
      }
    }
  });
});
