import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RECREATE_ACCOUNT_LIMIT, SIGNUP_CREDITS } from '@bt/core/catalogue';
import { OpenIdConnectProvider } from '../src/oidc/provider.js';
import { NO_LIMITS, newPerson, register, startTestApp, type TestApp } from './support/app.js';
import { TEST_DIALECT, openTestDatabase, type TestDatabase } from './support/db.js';
import { startOidcProvider, type ProviderUser, type TestProvider } from './support/oidc-provider.js';

let tdb: TestDatabase;
let provider: TestProvider;
let t: TestApp;
let unconfigured: TestApp;

before(async () => {
  tdb = await openTestDatabase();
  provider = await startOidcProvider();
  const google = new OpenIdConnectProvider({ id: 'google', label: 'Google', issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret });
  t = await startTestApp(tdb.db, { providers: [google] });
  unconfigured = await startTestApp(tdb.db);
});
after(async () => {
  await t.close();
  await unconfigured.close();
  await provider.close();
  await tdb.drop();
});

/** Where the callback sent the browser, and the `bt_oidc` cookie it left (name=value), if any. */
interface Return {
  params: URLSearchParams;
  cookie: string | null;
}

/** What a browser does: start, follow the provider's redirect, come back with the cookie. */
async function signInReturn(user: ProviderUser | { deny: true }, next?: string, tamper?: (callback: URL) => void, cookieOverride?: string | null): Promise<Return> {
  provider.signIn(user);
  const start = await fetch(`${t.url}/api/auth/google/login${next ? `?next=${encodeURIComponent(next)}` : ''}`, { redirect: 'manual' });
  assert.equal(start.status, 302);
  const setCookie = start.headers.get('set-cookie') ?? '';
  assert.match(setCookie, /bt_oidc=[^;]+;.*httponly/i);
  const cookie = setCookie.split(';')[0];
  const authorize = new URL(start.headers.get('location')!);
  assert.equal(authorize.origin, provider.issuer);
  assert.equal(authorize.searchParams.get('redirect_uri'), `${t.url}/api/auth/google/callback`);
  assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
  assert.ok(authorize.searchParams.get('nonce'));
  const atProvider = await fetch(authorize, { redirect: 'manual' });
  assert.equal(atProvider.status, 302);
  const callback = new URL(atProvider.headers.get('location')!);
  tamper?.(callback);
  const back = await fetch(callback, { redirect: 'manual', headers: cookieOverride === null ? {} : { cookie: cookieOverride ?? cookie } });
  assert.equal(back.status, 302);
  const target = new URL(back.headers.get('location')!);
  // No session key in any address the server sends the browser to (docs/security.md "Google sign-in").
  assert.deepEqual([...target.searchParams.keys()].filter((name) => /^(apikey|api_key|token|key)$/i.test(name)), []);
  assert.equal(target.origin + target.pathname, 'http://web.bt.test/login');
  assert.equal(target.searchParams.get('provider'), 'google');
  const left = /bt_oidc=([^;]*)/.exec(back.headers.get('set-cookie') ?? '');
  if (target.searchParams.get('code')) {
    // The code's binding: a fresh value of the cookie, as long-lived as the code.
    assert.ok(left?.[1], 'a fresh binding for the code');
    assert.notEqual(`bt_oidc=${left[1]}`, cookie, 'not the state’s binding');
    assert.match(back.headers.get('set-cookie')!, /path=\/api\/auth\/google;.*httponly/i);
    const expires = Date.parse(/expires=([^;]+)/i.exec(back.headers.get('set-cookie')!)![1]) - Date.now();
    assert.ok(expires > 55_000 && expires <= 61_000, `expires in ${expires} ms`);
  }
  return { params: target.searchParams, cookie: left?.[1] ? `bt_oidc=${left[1]}` : null };
}

/** What the web app does with the return: POST the code with the cookie. */
const redeem = (code: string | null, cookie: string | null) => t.request('POST', '/api/auth/google/redeem', { json: { code }, headers: cookie ? { cookie } : {} });

/** A whole sign-in, as the web app ends it: `key` is the redeemed session key, or null. */
async function signIn(...args: Parameters<typeof signInReturn>): Promise<{ key: string | null; error: string | null; next: string | null }> {
  const { params, cookie } = await signInReturn(...args);
  const error = params.get('error');
  if (error) return { key: null, error, next: params.get('next') };
  const answer = await redeem(params.get('code'), cookie);
  assert.equal(answer.status, 200, answer.text);
  return { key: answer.body.apiKey, error: null, next: params.get('next') };
}

const REFUSED = 'La connexion avec Google a expiré ou a été commencée dans un autre navigateur. Réessaie.';

let sub = 0;
const googleUser = (email: string, verified = true): ProviderUser => ({
  sub: `google-${process.pid}-${++sub}`,
  email,
  email_verified: verified,
  given_name: 'Léa',
  family_name: 'Martin',
  name: 'Léa Martin',
});

describe(`Google sign-in through a local OpenID provider (${TEST_DIALECT})`, () => {
  it('creates a verified account with the sign-up credits and returns to /login with a code for the key', async () => {
    const email = newPerson().email;
    const params = await signIn(googleUser(email), '/backtest?symbol=EURUSD');
    const key = params.key!;
    assert.ok(key);
    assert.equal(params.next, '/backtest?symbol=EURUSD');
    const me = await t.request('GET', '/api/me', { key });
    assert.equal(me.status, 200);
    assert.equal(me.body.email, email);
    assert.equal(me.body.first_name, 'Léa');
    assert.equal(me.body.last_name, 'Martin');
    assert.equal(me.body.email_verified, true);
    assert.equal(me.body.credits, SIGNUP_CREDITS, 'granted at once: the provider vouches for the address');
    assert.equal(me.body.has_password, false);
    // The client authenticated with its secret and proved PKCE.
    const last = provider.tokenRequests.at(-1)!;
    assert.ok(last.codeVerifier && last.codeVerifier.length >= 43);
    assert.notEqual(last.clientAuth, 'none');
  });

  it('an address admin@… does not give its account a reserved username (docs/admin.md#the-admin-account)', async () => {
    const params = await signIn(googleUser(`Admin@oidc-${process.pid}-${sub}.example`));
    const me = await t.request('GET', '/api/me', { key: params.key! });
    assert.equal(me.status, 200);
    assert.equal(me.body.username, 'admin-user');
  });

  it('signs the same Google account into the same bt account, without new credits', async () => {
    const person = googleUser(newPerson().email);
    const first = await signIn(person);
    const second = await signIn(person);
    const a = await t.request('GET', '/api/me', { key: first.key! });
    const b = await t.request('GET', '/api/me', { key: second.key! });
    assert.equal(a.body.id, b.body.id);
    assert.equal(b.body.credits, SIGNUP_CREDITS);
  });

  it('two first sign-ins of one Google account at once (two tabs) end in one bt account, credited once, never a 500', async () => {
    const person = googleUser(newPerson().email);
    const results = await Promise.all([signIn(person), signIn(person), signIn(person)]);
    const ids = new Set<number>();
    for (const params of results) {
      const key = params.key;
      assert.ok(key, JSON.stringify(params));
      ids.add((await t.request('GET', '/api/me', { key })).body.id);
    }
    assert.equal(ids.size, 1);
    const [id] = ids;
    assert.equal((await t.db.models.User.findByPk(id))?.credits, SIGNUP_CREDITS);
    assert.equal(await t.db.models.UserIdentity.count({ where: { subject: person.sub } }), 1);
  });

  it('links an existing password account with the same verified address, and verifies it', async () => {
    const user = await register(t);
    const params = await signIn(googleUser(user.email.toUpperCase()));
    const me = await t.request('GET', '/api/me', { key: params.key! });
    assert.equal(me.body.id, user.id);
    assert.equal(me.body.email_verified, true);
    assert.equal(me.body.credits, SIGNUP_CREDITS);
    assert.equal(await tdb.db.models.UserIdentity.count({ where: { userId: user.id } }), 1);
  });

  it('an unverified account linked by Google loses the password and the sessions nobody proved (account pre-hijacking)', async () => {
    // Anyone can register someone else's address with a password of their own and leave it
    // unverified. Before, the owner's later Google sign-in linked into that account and the
    // squatter's password and key went on working: whatever the owner bought, they shared.
    const squatter = await register(t);
    const params = await signIn(googleUser(squatter.email));
    const owner = params.key!;
    assert.equal((await t.request('GET', '/api/me', { key: owner })).body.id, squatter.id);
    assert.equal((await t.request('GET', '/api/me', { key: squatter.key })).status, 401, 'the squatter’s session ends');
    const login = await t.request('POST', '/api/login', { json: { identifier: squatter.email, password: squatter.password } });
    assert.deepEqual([login.status, login.body.detail], [401, 'Identifiants invalides']);
    const me = (await t.request('GET', '/api/me', { key: owner })).body;
    assert.deepEqual([me.email_verified, me.has_password], [true, false]);
    // The owner can set a password of their own (none is asked for: the account has none now).
    const set = await t.request('POST', '/api/profile/set-password', { key: owner, json: { new_password: 'a-moi-seulement' } });
    assert.equal(set.status, 200, set.text);
  });

  it('a verified account linked by Google keeps its password and its sessions (its owner proved the address)', async () => {
    const user = await register(t);
    await tdb.db.models.User.update({ emailVerified: true }, { where: { id: user.id } });
    const params = await signIn(googleUser(user.email));
    assert.equal((await t.request('GET', '/api/me', { key: params.key! })).body.id, user.id);
    assert.equal((await t.request('GET', '/api/me', { key: user.key })).status, 200);
    assert.equal((await t.request('POST', '/api/login', { json: { identifier: user.email, password: user.password } })).status, 200);
  });

  it('does not link a password account by a look-alike address: é for e is another address (docs/security.md)', async () => {
    const user = await register(t, { ...newPerson('oidc'), email: `lea${process.pid}x${++sub}@bt-desk.example` });
    const lookalike = user.email.replace('bt-desk', 'bt-désk');
    const params = await signIn(googleUser(lookalike));
    const me = await t.request('GET', '/api/me', { key: params.key! });
    assert.notEqual(me.body.id, user.id, 'a new account, not the password account');
    assert.equal(me.body.email, lookalike);
    assert.equal(await tdb.db.models.UserIdentity.count({ where: { userId: user.id } }), 0);
  });

  it('two subjects that differ only in letter case are two accounts (OpenID subjects are case-sensitive)', async () => {
    const tag = `${process.pid}-${++sub}`;
    const first = await signIn({ ...googleUser(newPerson().email), sub: `Subject-${tag}` });
    const second = await signIn({ ...googleUser(newPerson().email), sub: `subject-${tag}` });
    const a = await t.request('GET', '/api/me', { key: first.key! });
    const b = await t.request('GET', '/api/me', { key: second.key! });
    assert.notEqual(a.body.id, b.body.id);
    assert.notEqual(a.body.email, b.body.email);
  });

  it('does not link by an address the provider did not verify', async () => {
    const user = await register(t);
    const params = await signIn(googleUser(user.email, false));
    assert.equal(params.error, 'email_unverified');
    assert.equal(params.key, null);
  });

  it('returns error=recreate_limit once the address was re-created 3 times', async () => {
    const person = googleUser(newPerson('googlerecreate').email);
    for (let i = 0; i <= RECREATE_ACCOUNT_LIMIT; i++) {
      const params = await signIn({ ...person, sub: `${person.sub}-${i}` });
      const key = params.key;
      assert.ok(key, `creation ${i + 1}: ${params}`);
      assert.equal((await t.request('POST', '/api/user/delete_account', { key })).status, 200);
    }
    const refused = await signIn({ ...person, sub: `${person.sub}-last` });
    assert.equal(refused.error, 'recreate_limit');
    assert.equal(refused.key, null);
  });

  it('passes the provider refusal back as error=access_denied', async () => {
    const params = await signIn({ deny: true });
    assert.equal(params.error, 'access_denied');
  });

  it('refuses a callback whose state was altered, or that comes without the browser cookie', async () => {
    const tampered = await signIn(googleUser(newPerson().email), undefined, (u) => u.searchParams.set('state', 'forged'));
    assert.equal(tampered.error, 'invalid_state');
    const otherBrowser = await signIn(googleUser(newPerson().email), undefined, undefined, 'bt_oidc=someone-else');
    assert.equal(otherBrowser.error, 'invalid_state');
    const noCookie = await signIn(googleUser(newPerson().email), undefined, undefined, null);
    assert.equal(noCookie.error, 'invalid_state');
  });

  it('refuses a replayed callback (state and code are single use)', async () => {
    provider.signIn(googleUser(newPerson().email));
    const start = await fetch(`${t.url}/api/auth/google/login`, { redirect: 'manual' });
    const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0];
    const callback = (await fetch(start.headers.get('location')!, { redirect: 'manual' })).headers.get('location')!;
    const first = new URL((await fetch(callback, { redirect: 'manual', headers: { cookie } })).headers.get('location')!);
    assert.ok(first.searchParams.get('code'));
    const replay = new URL((await fetch(callback, { redirect: 'manual', headers: { cookie } })).headers.get('location')!);
    assert.equal(replay.searchParams.get('error'), 'invalid_state');
  });

  it('drops a next parameter that leaves the site', async () => {
    const params = await signIn(googleUser(newPerson().email), 'https://evil.example/phish');
    assert.ok(params.key);
    assert.equal(params.next, null);
  });

  it('says clearly when Google sign-in is not configured, and 404 for an unknown provider', async () => {
    const res = await unconfigured.request('GET', '/api/auth/google/login');
    assert.equal(res.status, 503);
    assert.deepEqual(res.body, { detail: "La connexion avec Google n'est pas configurée sur ce serveur." });
    const unknown = await t.request('GET', '/api/auth/myspace/login');
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { detail: 'Fournisseur de connexion inconnu.' });
  });
});

describe(`the return's one-time code (${TEST_DIALECT})`, () => {
  it('the return carries a code, never a key; the code redeemed with the flow’s cookie answers the key as a login does, once', async () => {
    const email = newPerson().email;
    const { params, cookie } = await signInReturn(googleUser(email), '/results');
    const code = params.get('code');
    assert.ok(code && cookie);
    assert.deepEqual([...params.keys()].sort(), ['code', 'next', 'provider']);
    assert.equal(params.get('next'), '/results');
    assert.equal(await t.db.models.ApiKey.count({ where: { userId: (await t.db.models.User.findOne({ where: { email } }))!.id } }), 0, 'no session before the redeem');
    const answer = await redeem(code, cookie);
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(Object.keys(answer.body).sort(), ['apiKey', 'message', 'next', 'status', 'token']);
    assert.equal(answer.body.status, 'success');
    assert.equal(answer.body.token, answer.body.apiKey);
    assert.equal(answer.body.next, '/results');
    // The cookie's work is done: the answer clears it.
    assert.match(answer.headers.get('set-cookie') ?? '', /bt_oidc=;.*path=\/api\/auth\/google/i);
    const me = await t.request('GET', '/api/me', { key: answer.body.apiKey });
    assert.equal(me.status, 200);
    assert.equal(me.body.email, email);
    const replay = await redeem(code, cookie);
    assert.deepEqual([replay.status, replay.body], [400, { detail: REFUSED }]);
  });

  it('refuses a code without the cookie, or with another browser’s: 400, and no key', async () => {
    const { params, cookie } = await signInReturn(googleUser(newPerson().email));
    const code = params.get('code')!;
    const missing = await redeem(code, null);
    assert.deepEqual([missing.status, missing.body], [400, { detail: REFUSED }]);
    // Another browser's cookie (a started sign-in of its own): refused, and the code is spent.
    const other = await signInReturn(googleUser(newPerson().email));
    const wrong = await redeem(code, other.cookie);
    assert.deepEqual([wrong.status, wrong.body], [400, { detail: REFUSED }]);
    const late = await redeem(code, cookie);
    assert.deepEqual([late.status, late.body], [400, { detail: REFUSED }], 'a code is tried once');
    // The other browser's own code still works with its own cookie.
    assert.equal((await redeem(other.params.get('code'), other.cookie)).status, 200);
  });

  it('refuses an expired code (a minute), an unknown one, and any body that is not a code, never a 500', async () => {
    const { params, cookie } = await signInReturn(googleUser(newPerson().email));
    t.clock.advance(60_000);
    const expired = await redeem(params.get('code'), cookie);
    assert.deepEqual([expired.status, expired.body], [400, { detail: REFUSED }]);
    const fresh = await signInReturn(googleUser(newPerson().email));
    for (const body of [{ code: 'x'.repeat(43) }, { code: 'x'.repeat(5000) }, {}, { code: 12 }, { code: ['a', 'b'] }, { code: { $ne: null } }]) {
      const res = await t.request('POST', '/api/auth/google/redeem', { json: body, headers: { cookie: fresh.cookie! } });
      assert.equal(res.status, 400, JSON.stringify(body));
      // A list or an object is the API's usual refusal of a field that takes one value.
      if (typeof body.code !== 'object') assert.deepEqual(res.body, { detail: REFUSED }, JSON.stringify(body));
      else assert.equal(res.body.detail, 'Champ « code » : une seule valeur attendue (pas une liste ni un objet).');
    }
    assert.equal((await redeem(fresh.params.get('code'), fresh.cookie)).status, 200, 'the hostile bodies spent nothing of it');
    const unknown = await t.request('POST', '/api/auth/myspace/redeem', { json: { code: 'x' } });
    assert.equal(unknown.status, 404);
    assert.equal((await unconfigured.request('POST', '/api/auth/google/redeem', { json: { code: 'x' } })).status, 503);
  });

  it('two redeems of one code at once: one key, the other a 400', async () => {
    const { params, cookie } = await signInReturn(googleUser(newPerson().email));
    const answers = await Promise.all(Array.from({ length: 5 }, () => redeem(params.get('code'), cookie)));
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 400, 400, 400, 400]);
    const me = await t.request('GET', '/api/me', { key: answers.find((a) => a.status === 200)!.body.apiKey });
    assert.equal(me.status, 200);
    assert.equal(await t.db.models.ApiKey.count({ where: { userId: me.body.id } }), 1, 'one session issued');
  });

  it('a code for an account deleted before the redeem issues nothing', async () => {
    const first = await signIn(googleUser(newPerson().email));
    const person = googleUser(newPerson().email);
    const { params, cookie } = await signInReturn(person);
    const user = (await t.db.models.User.findOne({ where: { email: person.email! } }))!;
    await t.db.models.User.update({ deletedAt: t.clock.now() }, { where: { id: user.id } });
    const res = await redeem(params.get('code'), cookie);
    assert.deepEqual([res.status, res.body], [400, { detail: REFUSED }]);
    assert.equal(await t.db.models.ApiKey.count({ where: { userId: user.id } }), 0);
    assert.ok(first.key);
  });

  it('the redeem is limited per client as the password login is (429 past the rule)', async () => {
    const google = new OpenIdConnectProvider({ id: 'google', label: 'Google', issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret });
    const limited = await startTestApp(tdb.db, { providers: [google], config: { rateLimits: { ...NO_LIMITS, login: { limit: 2, windowSeconds: 60 } } } });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await limited.request('POST', '/api/auth/google/redeem', { json: { code: 'x' } })).status);
      assert.deepEqual(statuses, [400, 400, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe(`accounts without a password: a recent Google sign-in proves the owner (${TEST_DIALECT})`, () => {
  const REAUTH = "Ce compte n’a pas de mot de passe : confirme d’abord ton identité avec Google, puis recommence dans les 10 minutes.";
  const setPassword = (key: string, json: Record<string, string> = { new_password: 'mot-de-passe-pirate' }) => t.request('POST', '/api/profile/set-password', { key, json });
  const moveTo = (key: string, email: string) => t.request('POST', '/api/profile/update', { key, json: { email } });

  it('a key of an older session sets no password and moves no address (a stolen key took the account over)', async () => {
    const person = googleUser(newPerson().email);
    const key = (await signIn(person)).key!;
    t.clock.advance(11 * 60_000);
    const set = await setPassword(key);
    assert.equal(set.status, 400);
    assert.deepEqual(set.body, { detail: REAUTH, reauth: 'google' });
    const move = await moveTo(key, `pirate-${sub}@example.com`);
    assert.equal(move.status, 400);
    assert.deepEqual(move.body, { detail: REAUTH, reauth: 'google' });
    const me = (await t.request('GET', '/api/me', { key })).body;
    assert.deepEqual([me.email, me.has_password], [person.email, false], 'nothing changed');
    // Renaming needs no proof.
    assert.equal((await t.request('POST', '/api/profile/update', { key, json: { full_name: 'Léa Dupont' } })).status, 200);
  });

  it('a new Google sign-in vouches for its own session for 10 minutes: the password is set, the address moved', async () => {
    const person = googleUser(newPerson().email);
    const old = (await signIn(person)).key!;
    t.clock.advance(60 * 60_000);
    const fresh = (await signIn(person)).key!;
    assert.deepEqual((await setPassword(old)).body, { detail: REAUTH, reauth: 'google' }, 'the older session is not the one that signed in');
    t.clock.advance(9 * 60_000);
    const moved = `moved-${process.pid}-${++sub}@example.com`;
    const move = await moveTo(fresh, moved);
    assert.equal(move.status, 200, move.text);
    assert.equal(move.body.user.email, moved);
    const set = await setPassword(fresh, { new_password: 'a-moi-seulement-1' });
    assert.equal(set.status, 200, set.text);
    const login = await t.request('POST', '/api/login', { json: { identifier: moved, password: 'a-moi-seulement-1' } });
    assert.equal(login.status, 200);
    // Now the account has a password: it is what proves the owner from here on.
    assert.deepEqual((await setPassword(fresh, { new_password: 'encore-un-autre' })).body, { detail: 'Mot de passe actuel obligatoire.' });
  });

  it('deleting the account: a key of an older session is refused (nothing deleted), a new sign-in’s session deletes it', async () => {
    const person = googleUser(newPerson().email);
    const old = (await signIn(person)).key!;
    t.clock.advance(11 * 60_000);
    // A password sent by a stolen key changes nothing: the account has none to check.
    const refused = await t.request('POST', '/api/user/delete_account', { key: old, json: { current_password: 'devine' } });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, { detail: REAUTH, reauth: 'google' });
    const me = await t.request('GET', '/api/me', { key: old });
    assert.equal(me.status, 200, 'the account is still there');
    const fresh = (await signIn(person)).key!;
    assert.deepEqual((await t.request('POST', '/api/user/delete_account', { key: old })).body, { detail: REAUTH, reauth: 'google' }, 'only the new session is vouched for');
    t.clock.advance(9 * 60_000);
    const deleted = await t.request('POST', '/api/user/delete_account', { key: fresh });
    assert.deepEqual([deleted.status, deleted.body], [200, { status: 'success', message: 'Compte supprimé.' }]);
    assert.ok((await tdb.db.models.User.findByPk(me.body.id))?.deletedAt);
  });

  it('a sign-in older than 10 minutes vouches for nothing', async () => {
    const key = (await signIn(googleUser(newPerson().email))).key!;
    t.clock.advance(10 * 60_000 + 1000);
    assert.deepEqual((await setPassword(key)).body, { detail: REAUTH, reauth: 'google' });
  });

  it('without a provider to sign in with, the answer points to the reset link mailed to the address', async () => {
    // An account without a password whose provider is not configured on this server any more.
    const person = googleUser(newPerson().email);
    const key = (await signIn(person)).key!;
    const me = (await t.request('GET', '/api/me', { key })).body;
    await tdb.db.models.UserIdentity.update({ provider: 'myspace' }, { where: { userId: me.id } });
    t.clock.advance(11 * 60_000);
    const set = await setPassword(key);
    assert.equal(set.status, 400);
    assert.deepEqual(set.body, { detail: 'Ce compte n’a pas de mot de passe : utilise « Mot de passe oublié » pour recevoir un lien à ton adresse e-mail.' });
  });
});
