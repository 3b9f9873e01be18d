import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { safeNextPath } from '../src/oidc/flow.js';
import { OpenIdConnectProvider } from '../src/oidc/provider.js';
import { newPerson, register, startTestApp, type TestApp } from './support/app.js';
import { TEST_DIALECT, openTestDatabase, type TestDatabase } from './support/db.js';
import { startOidcProvider, type IdTokenForgery, type ProviderUser, type TestProvider } from './support/oidc-provider.js';
import { makeAdmin } from './support/work.js';

// The ID token of a Google sign-in, spoiled one check at a time at the local OpenID provider
// (docs/security.md, "Google sign-in"): each must end at /login?error=oidc_failed with no account,
// no identity and no key; and the address it carries is one account per person.

let tdb: TestDatabase;
let provider: TestProvider;
let t: TestApp;

before(async () => {
  tdb = await openTestDatabase();
  provider = await startOidcProvider();
  const google = new OpenIdConnectProvider({ id: 'google', label: 'Google', issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret });
  t = await startTestApp(tdb.db, { providers: [google] });
});
after(async () => {
  await t.close();
  await provider.close();
  await tdb.drop();
});

/**
 * A browser's whole sign-in: start, the provider, the callback with the binding cookie, and the
 * web app's redeem of the return's code with the cookie the callback left. Answers the return's
 * parameters, plus `apiKey`: the key the code was redeemed for (the address itself never has one).
 */
async function signIn(user: ProviderUser, forgery?: IdTokenForgery, app: TestApp = t): Promise<URLSearchParams> {
  provider.signIn(user);
  if (forgery) provider.forgeNext(forgery);
  const start = await fetch(`${app.url}/api/auth/google/login`, { redirect: 'manual' });
  const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0];
  const atProvider = await fetch(start.headers.get('location')!, { redirect: 'manual' });
  // The callback at this app's own address (the https app's API URL is not where it listens).
  const callback = new URL(atProvider.headers.get('location')!);
  const back = await fetch(`${app.url}${callback.pathname}${callback.search}`, { redirect: 'manual', headers: { cookie } });
  assert.equal(back.status, 302);
  const target = new URL(back.headers.get('location')!);
  assert.equal(target.pathname, '/login');
  assert.equal(target.searchParams.get('apiKey') ?? target.searchParams.get('token'), null, 'no key in the address');
  const result = new URLSearchParams(target.searchParams);
  const code = target.searchParams.get('code');
  if (code) {
    lastCodeCookie = back.headers.get('set-cookie') ?? '';
    const answer = await app.request('POST', '/api/auth/google/redeem', { json: { code }, headers: { cookie: lastCodeCookie.split(';')[0] } });
    assert.equal(answer.status, 200, answer.text);
    result.set('apiKey', answer.body.apiKey);
  }
  return result;
}
/** The Set-Cookie of the last callback that issued a code. */
let lastCodeCookie = '';

let n = 0;
const person = (email = `g${process.pid}x${++n}@gmail.example`): ProviderUser => ({ sub: `sub-${process.pid}-${++n}`, email, email_verified: true, given_name: 'Léa', family_name: 'Martin' });

const noTrace = async (user: ProviderUser) => {
  assert.equal(await t.db.models.UserIdentity.count({ where: { subject: user.sub } }), 0, 'no identity linked');
  assert.equal(await t.db.models.User.count({ where: { email: user.email! } }), 0, 'no account created');
};

describe(`Google ID token checks (${TEST_DIALECT})`, () => {
  it('control: the unspoiled token signs in', async () => {
    const params = await signIn(person());
    assert.ok(params.get('apiKey'), params.toString());
  });

  const forgeries: Record<string, (issuer: string) => IdTokenForgery> = {
    'another audience': () => ({ claims: { aud: 'another-client' } }),
    'another audience in a list': () => ({ claims: { aud: ['another-client'] } }),
    'our audience beside another, authorised party the other': () => ({ claims: { aud: ['bt-test-client', 'another-client'], azp: 'another-client' } }),
    'no audience': () => ({ omit: ['aud'] }),
    'another issuer (https://accounts.google.com)': () => ({ claims: { iss: 'https://accounts.google.com' } }),
    'the issuer without its scheme (the bare form)': (issuer) => ({ claims: { iss: issuer.replace(/^https?:\/\//, '') } }),
    'the issuer with a trailing slash': (issuer) => ({ claims: { iss: `${issuer}/` } }),
    'no issuer': () => ({ omit: ['iss'] }),
    'expired an hour ago': () => ({ claims: { exp: Math.floor(Date.now() / 1000) - 3600 } }),
    'no expiry': () => ({ omit: ['exp'] }),
    'another nonce': () => ({ claims: { nonce: 'an-attacker-nonce' } }),
    'no nonce': () => ({ omit: ['nonce'] }),
    'alg none': () => ({ alg: 'none' }),
    'HS256 keyed with the client secret (algorithm confusion)': () => ({ alg: 'HS256' }),
    'a key id the JWKS does not hold': () => ({ foreignKid: 'attacker-key' }),
    'the JWKS key id, signed by another key': () => ({ foreignKid: 'test-key' }),
  };
  for (const [name, forge] of Object.entries(forgeries)) {
    it(`refuses ${name}`, async () => {
      const user = person();
      const params = await signIn(user, forge(provider.issuer));
      assert.equal(params.get('apiKey'), null, `${name}: ${params.toString()}`);
      assert.equal(params.get('error'), 'oidc_failed');
      await noTrace(user);
    });
  }

  it('email_verified false (or "false") links no existing account and proves nothing', async () => {
    for (const verified of [false, 'false', 'TRUE', 1] as unknown[]) {
      const owner = await register(t);
      const user = { ...person(owner.email) };
      const params = await signIn(user, { claims: { email_verified: verified } });
      assert.equal(params.get('error'), 'email_unverified', `${String(verified)}: ${params.toString()}`);
      assert.equal(await t.db.models.UserIdentity.count({ where: { userId: owner.id } }), 0);
      assert.equal((await t.db.models.User.findByPk(owner.id))!.passwordHash !== null, true, 'the password stays');
    }
  });
});

describe(`one account per person through Google (${TEST_DIALECT})`, () => {
  const nfc = () => `josé${process.pid}x${++n}@exemple.fr`.normalize('NFC');

  it('an address in another form (NFD, upper case, trailing dot) signs into the one account', async () => {
    for (const form of [(e: string) => e.normalize('NFD'), (e: string) => e.toUpperCase(), (e: string) => `${e}.`]) {
      const owner = await register(t, { ...newPerson('g'), email: nfc() });
      const user = person(form(owner.email));
      const params = await signIn(user);
      const me = await t.request('GET', '/api/me', { key: params.get('apiKey')! });
      assert.equal(me.body.id, owner.id, `${user.email}: ${params.toString()}`);
      assert.equal(await t.db.models.User.count({ where: { lastName: owner.last_name } }), 1);
    }
  });

  it('a full-width or invisible local part links no account and creates none', async () => {
    const owner = await register(t, { ...newPerson('g'), email: nfc() });
    const [local, domain] = owner.email.split('@');
    for (const email of [`${[...local].map((c) => (/[a-z]/.test(c) ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join('')}@${domain}`, `\u200b${local}@${domain}`]) {
      const user = person(email);
      const params = await signIn(user);
      assert.equal(params.get('error'), 'email_missing', `${email}: ${params.toString()}`);
      assert.equal(await t.db.models.UserIdentity.count({ where: { userId: owner.id } }), 0);
    }
  });

  it('a second Google account with the address of a linked one (an address the domain gave to someone else) takes nothing', async () => {
    const first = person();
    const created = await signIn(first);
    const me = await t.request('GET', '/api/me', { key: created.get('apiKey')! });
    const successor = { ...person(first.email), sub: `${first.sub}-successor` };
    const params = await signIn(successor);
    assert.equal(params.get('apiKey'), null, params.toString());
    assert.equal(params.get('error'), 'identity_conflict');
    assert.equal(await t.db.models.UserIdentity.count({ where: { userId: me.body.id } }), 1);
    // The first one still signs in.
    assert.ok((await signIn(first)).get('apiKey'));
  });
});

describe(`the admin account through Google (${TEST_DIALECT})`, () => {
  it('is never linked by its address: a provider vouching for it gets no admin session', async () => {
    const admin = await makeAdmin(t);
    const user = person(admin.email);
    const params = await signIn(user);
    assert.equal(params.get('apiKey'), null, params.toString());
    assert.equal(params.get('error'), 'admin_password');
    assert.equal(await t.db.models.UserIdentity.count({ where: { userId: admin.id } }), 0);
    const row = await t.db.models.User.findByPk(admin.id);
    assert.equal(row!.role, 'admin');
    assert.ok(row!.passwordHash, 'the admin keeps its password');
  });
});

describe('the next path kept by the flow', () => {
  it('keeps a path of the site, drops what a browser would read as another host', () => {
    assert.equal(safeNextPath('/profile?reauth=password'), '/profile?reauth=password');
    for (const next of ['//evil.example', '/\\evil.example', 'https://evil.example', '/\t/evil.example', '/\n/evil.example', '/\r\n//evil.example', '/\u0000/x']) {
      assert.equal(safeNextPath(next), null, JSON.stringify(next));
    }
  });
});

describe(`the flow's cookie (${TEST_DIALECT})`, () => {
  it('is HttpOnly, SameSite=Lax, scoped to the flow, and Secure when the API is https even behind a proxy not trusted', async () => {
    const google = new OpenIdConnectProvider({ id: 'google', label: 'Google', issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret });
    const https = await startTestApp(tdb.db, { providers: [google], config: { apiUrl: 'https://api.bt.test' } });
    try {
      for (const [app, secure] of [[t, false], [https, true]] as const) {
        const start = await fetch(`${app.url}/api/auth/google/login`, { redirect: 'manual' });
        const cookie = start.headers.get('set-cookie') ?? '';
        assert.match(cookie, /^bt_oidc=[^;]+;/);
        assert.match(cookie, /; path=\/api\/auth\/google;/i);
        assert.match(cookie, /; samesite=lax/i);
        assert.match(cookie, /; httponly/i);
        assert.equal(/; secure/i.test(cookie), secure, cookie);
        // The code's binding, set by the callback, the same way.
        assert.ok((await signIn(person(), undefined, app)).get('apiKey'));
        assert.match(lastCodeCookie, /^bt_oidc=[^;]+; path=\/api\/auth\/google;/i);
        assert.match(lastCodeCookie, /; samesite=lax/i);
        assert.match(lastCodeCookie, /; httponly/i);
        assert.equal(/; secure/i.test(lastCodeCookie), secure, lastCodeCookie);
      }
    } finally {
      await https.close();
    }
  });
});
