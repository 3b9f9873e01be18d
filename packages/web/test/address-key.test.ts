/**
 * A key in the address (docs/security.md "Sessions", docs/web.md "Session"): what it may do to a
 * session already stored, the code of a Google sign-in's return, and the store's answers.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { accountLabel, decideAddressKey, sameAccount } from '../src/session/addressKey.js';
import { captureSignInCode } from '../src/session/signInCode.js';
import { memoryStorage } from '../src/session/keyStorage.js';
import { SessionStore } from '../src/session/store.js';
import { HttpError, NetworkError } from '../src/api/errors.js';
import type { UserProfile } from '../src/session/types.js';
import { createApiClient } from '../src/api/client.js';
import { makeCalls } from '../src/api/calls.js';

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('decideAddressKey', () => {
  it('takes a key when nothing is stored, as a sign-in by a link', () => {
    assert.deepEqual(decideAddressKey(null, 'k1'), { action: 'take', byLink: true });
  });

  it('asks before another key replaces a stored one', () => {
    assert.deepEqual(decideAddressKey('mine', 'theirs'), { action: 'ask', byLink: false });
  });

  it('ignores the stored key itself and an address without a key', () => {
    assert.deepEqual(decideAddressKey('mine', 'mine'), { action: 'ignore', byLink: false });
    assert.deepEqual(decideAddressKey('mine', null), { action: 'ignore', byLink: false });
    assert.deepEqual(decideAddressKey(null, null), { action: 'ignore', byLink: false });
  });
});

describe('the code of a sign-in return', () => {
  it('takes the code out of /login?provider=…, keeping the rest of the address', () => {
    assert.deepEqual(captureSignInCode('/login', '?provider=google&code=c0de&next=%2Fdashboard'), {
      code: { provider: 'google', value: 'c0de' },
      search: '?provider=google&next=%2Fdashboard',
      changed: true,
    });
    assert.deepEqual(captureSignInCode('/login/', '?code=c0de&provider=google'), { code: { provider: 'google', value: 'c0de' }, search: '?provider=google', changed: true });
  });

  it('a blank code leaves the address, and is no code', () => {
    assert.deepEqual(captureSignInCode('/login', '?provider=google&code=%20'), { code: null, search: '?provider=google', changed: true });
  });

  it('leaves every other address alone: another page, no provider, a provider that is not a name', () => {
    for (const [path, search] of [['/pricing', '?provider=google&code=c0de'], ['/login', '?code=c0de'], ['/login', '?provider=..%2Fadmin&code=c0de'], ['/login', '?provider=google']]) {
      assert.deepEqual(captureSignInCode(path, search), { code: null, search, changed: false }, `${path}${search}`);
    }
  });
});

describe('account names', () => {
  it('names an account by username, else e-mail, and tells two accounts apart by id', () => {
    assert.equal(accountLabel({ username: 'ana', email: 'a@b.fr' }), 'ana');
    assert.equal(accountLabel({ username: ' ', email: 'a@b.fr' }), 'a@b.fr');
    assert.equal(accountLabel({}), null);
    assert.equal(sameAccount({ id: 4 }, { id: '4' }), true);
    assert.equal(sameAccount({ id: 4 }, { id: 5 }), false);
    assert.equal(sameAccount({}, {}), false, 'unknown ids are not the same account');
  });
});

/** A server of profiles by key: a key it does not know is refused with a 401, as /api/me does. */
function profiles(known: Record<string, UserProfile | Error>): { fetchProfile: (key: string) => Promise<UserProfile>; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    fetchProfile: async (key) => {
      asked.push(key);
      const answer = known[key];
      if (answer instanceof Error) throw answer;
      if (!answer) throw new HttpError(401, 'Clé API invalide ou expirée.', null);
      return answer;
    },
  };
}

const ANA: UserProfile = { id: 1, username: 'ana', email: 'ana@bt.test' };
const MALLORY: UserProfile = { id: 2, username: 'mallory', email: 'mallory@bt.test' };

describe('session store and a key in the address', () => {
  it('a live session and another account\'s key: asked; staying keeps the session and forgets the key', async () => {
    const storage = memoryStorage({ apiKey: 'ana-key' });
    const server = profiles({ 'ana-key': ANA, 'mallory-key': MALLORY });
    const store = new SessionStore({ storage, fetchProfile: server.fetchProfile, pingAdmin: async () => undefined });
    await store.start('mallory-key');
    const state = store.getState();
    assert.deepEqual([state.status, state.key, state.user?.username, storage.getItem('apiKey')], ['ready', 'ana-key', 'ana', 'ana-key'], 'nothing changed while asking');
    assert.deepEqual(state.offer, { key: 'mallory-key', user: MALLORY });
    store.declineOffer();
    assert.deepEqual([store.getState().offer, store.getState().key, store.getState().user?.username, storage.getItem('apiKey')], [null, 'ana-key', 'ana', 'ana-key']);
  });

  it('switching signs in with the offered key, without the notice of a link', async () => {
    const storage = memoryStorage({ apiKey: 'ana-key' });
    const store = new SessionStore({ storage, ...profiles({ 'ana-key': ANA, 'mallory-key': MALLORY }), pingAdmin: async () => undefined });
    await store.start('mallory-key');
    await store.acceptOffer();
    const state = store.getState();
    assert.deepEqual([state.status, state.key, state.user?.username, state.offer, state.byLink, storage.getItem('apiKey')], ['ready', 'mallory-key', 'mallory', null, false, 'mallory-key']);
  });

  it('a key the server refuses is never stored, and the live session stays as it was', async () => {
    const storage = memoryStorage({ apiKey: 'ana-key' });
    const store = new SessionStore({ storage, ...profiles({ 'ana-key': ANA }), pingAdmin: async () => undefined });
    await store.start('forged-key');
    const state = store.getState();
    assert.deepEqual([state.status, state.key, state.offer, storage.getItem('apiKey')], ['ready', 'ana-key', null, 'ana-key']);
  });

  it('a refused key with nothing stored leaves the visitor signed out, as before', async () => {
    const storage = memoryStorage();
    const store = new SessionStore({ storage, ...profiles({}), pingAdmin: async () => undefined });
    await store.start('forged-key');
    assert.deepEqual([store.getState().status, store.getState().key, store.getState().byLink, storage.getItem('apiKey')], ['anonymous', null, false, null]);
  });

  it('a stored key the server refuses was no live session: the address key is taken, as a sign-in by a link', async () => {
    const storage = memoryStorage({ apiKey: 'ended-key' });
    const store = new SessionStore({ storage, ...profiles({ 'mallory-key': MALLORY }), pingAdmin: async () => undefined });
    const statuses: string[] = [];
    store.subscribe(() => statuses.push(store.getState().status));
    await store.start('mallory-key');
    const state = store.getState();
    assert.deepEqual([state.status, state.key, state.user?.username, state.offer, state.byLink, storage.getItem('apiKey')], ['ready', 'mallory-key', 'mallory', null, true, 'mallory-key']);
    assert.ok(!statuses.includes('anonymous'), 'never signed out on the way (the Google return page would say it failed)');
  });

  it('another key of the same account (a fresh sign-in\'s) is taken without a question', async () => {
    const storage = memoryStorage({ apiKey: 'ana-key' });
    const store = new SessionStore({ storage, ...profiles({ 'ana-key': ANA, 'ana-fresh': { ...ANA, credits: 3 } }), pingAdmin: async () => undefined });
    await store.start('ana-fresh');
    const state = store.getState();
    assert.deepEqual([state.key, state.offer, state.byLink, storage.getItem('apiKey')], ['ana-fresh', null, false, 'ana-fresh']);
  });

  it('a Google return\'s code replaces the session without a question: only this browser could redeem it', async () => {
    const storage = memoryStorage({ apiKey: 'ana-key' });
    const server = profiles({ 'ana-key': ANA, 'gina-key': { id: 3, username: 'gina' } });
    const store = new SessionStore({ storage, fetchProfile: server.fetchProfile, pingAdmin: async () => undefined });
    const redeemed = store.redeemSignIn(async () => ({ status: 'success', token: 'gina-key', apiKey: 'gina-key' }));
    assert.equal(store.getState().status, 'consuming', 'said at once, before the answer');
    await redeemed;
    const state = store.getState();
    assert.deepEqual([state.status, state.key, state.user?.username, state.offer, state.byLink, state.signInFailure, storage.getItem('apiKey')], ['ready', 'gina-key', 'gina', null, false, null, 'gina-key']);
    assert.deepEqual(server.asked, ['gina-key'], 'the old key is not even read');
  });

  it('a refused code keeps the stored session and says why; without one, nobody is signed in', async () => {
    const refused = new HttpError(400, 'La connexion avec Google a expiré ou a été commencée dans un autre navigateur. Réessaie.', null);
    const storage = memoryStorage({ apiKey: 'ana-key' });
    const store = new SessionStore({ storage, fetchProfile: profiles({ 'ana-key': ANA }).fetchProfile, pingAdmin: async () => undefined });
    await store.redeemSignIn(async () => {
      throw refused;
    });
    let state = store.getState();
    assert.deepEqual([state.status, state.key, state.user?.username, state.signInFailure, storage.getItem('apiKey')], ['ready', 'ana-key', 'ana', { detail: refused.detail }, 'ana-key']);

    const empty = memoryStorage();
    const anonymous = new SessionStore({ storage: empty, fetchProfile: profiles({}).fetchProfile, pingAdmin: async () => undefined });
    await anonymous.redeemSignIn(async () => {
      throw new NetworkError(new Error('offline'));
    });
    state = anonymous.getState();
    assert.deepEqual([state.status, state.key, state.signInFailure, empty.getItem('apiKey')], ['anonymous', null, { detail: null }, null], 'no answer: no reason to tell');
    // An answer without a key (a proxy's page) is no sign-in either.
    await anonymous.redeemSignIn(async () => ({ status: 'success' }) as { token?: unknown });
    assert.deepEqual([anonymous.getState().status, anonymous.getState().signInFailure], ['anonymous', { detail: null }]);
  });

  it('nothing stored and a key by a link: signed in, said once; hidden or signed out, the notice goes', async () => {
    const storage = memoryStorage();
    const store = new SessionStore({ storage, ...profiles({ 'mallory-key': MALLORY }), pingAdmin: async () => undefined, revokeKey: async () => undefined });
    await store.start('mallory-key');
    assert.deepEqual([store.getState().status, store.getState().byLink], ['ready', true]);
    store.dismissLinkNotice();
    assert.equal(store.getState().byLink, false);
    const again = new SessionStore({ storage: memoryStorage(), ...profiles({ 'mallory-key': MALLORY }), pingAdmin: async () => undefined, revokeKey: async () => undefined });
    await again.start('mallory-key');
    again.logout();
    assert.deepEqual([again.getState().status, again.getState().byLink], ['anonymous', false]);
  });

  it('the same key as the stored one: no question, no notice', async () => {
    const storage = memoryStorage({ apiKey: 'ana-key' });
    const server = profiles({ 'ana-key': ANA });
    const store = new SessionStore({ storage, fetchProfile: server.fetchProfile, pingAdmin: async () => undefined });
    await store.start('ana-key');
    const state = store.getState();
    assert.deepEqual([state.status, state.key, state.offer, state.byLink], ['ready', 'ana-key', null, false]);
    assert.deepEqual(server.asked, ['ana-key']);
  });

  it('a stored key whose profile cannot be read for now is kept, and the question still asked', async () => {
    const storage = memoryStorage({ apiKey: 'ana-key' });
    const store = new SessionStore({ storage, ...profiles({ 'ana-key': new NetworkError(new TypeError('Failed to fetch')), 'mallory-key': MALLORY }), pingAdmin: async () => undefined });
    await store.start('mallory-key');
    const state = store.getState();
    assert.deepEqual([state.status, state.key, state.offer?.key, storage.getItem('apiKey')], ['unavailable', 'ana-key', 'mallory-key', 'ana-key']);
  });

  it('a session changed meanwhile (another tab signed out) drops the question', async () => {
    const storage = memoryStorage({ apiKey: 'ana-key' });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const server = profiles({ 'ana-key': ANA, 'mallory-key': MALLORY });
    const store = new SessionStore({ storage, fetchProfile: async (key) => (await gate, server.fetchProfile(key)), pingAdmin: async () => undefined });
    const started = store.start('mallory-key');
    storage.removeItem('apiKey');
    store.syncFromStorage();
    release();
    await started;
    await flush();
    assert.deepEqual([store.getState().status, store.getState().offer, storage.getItem('apiKey')], ['anonymous', null, null]);
  });
});

describe('two keys read at once', () => {
  it('each profile read sends its own key and gets its own answer (no shared GET)', async () => {
    const sent: string[] = [];
    const client = createApiClient({
      fetch: async (_url, init) => {
        const key = (init?.headers as Record<string, string>)['X-API-Key'];
        sent.push(key);
        await flush();
        return new Response(JSON.stringify({ id: key === 'ana-key' ? 1 : 2, username: key }), { status: 200, headers: { 'Content-Type': 'application/json' } });
      },
      now: () => 0,
      location: () => ({ hostname: 'localhost', pathname: '/', search: '', hash: '' }),
      redirect: () => undefined,
      getKey: () => 'ana-key',
      apiHost: '',
    });
    const calls = makeCalls(client);
    const [mine, theirs] = await Promise.all([calls.me('ana-key'), calls.me('mallory-key')]);
    assert.deepEqual([mine.username, theirs.username], ['ana-key', 'mallory-key']);
    assert.deepEqual(sent.sort(), ['ana-key', 'mallory-key']);
  });
});

describe('the redeem call', () => {
  it('posts the code with the API\'s cookies (the flow\'s binding) and no key, and reads the key as a login\'s', async () => {
    const sent: { url: string; init: RequestInit }[] = [];
    const client = createApiClient({
      fetch: async (url, init) => {
        sent.push({ url, init });
        return new Response(JSON.stringify({ status: 'success', token: 'k', apiKey: 'k', message: 'Connexion réussie', next: null }), { status: 200, headers: { 'Content-Type': 'application/json' } });
      },
      now: () => 0,
      location: () => ({ hostname: 'bt.example', pathname: '/login', search: '', hash: '' }),
      redirect: () => undefined,
      getKey: () => 'stored-key',
      apiHost: '',
    });
    const answer = await makeCalls(client).redeemSignIn('google', 'c0de');
    assert.equal(answer.apiKey, 'k');
    assert.equal(sent.length, 1);
    assert.equal(sent[0].url, '/api/auth/google/redeem');
    assert.equal(sent[0].init.method, 'POST');
    assert.equal(sent[0].init.credentials, 'include');
    assert.equal(sent[0].init.body, JSON.stringify({ code: 'c0de' }));
    assert.equal((sent[0].init.headers as Record<string, string>)['X-API-Key'], undefined, 'no key: the code is the credential');
  });
});
