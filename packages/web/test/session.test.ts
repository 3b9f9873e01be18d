import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AdminStatusCache, isAdminUser, profileRole } from '../src/session/adminStatus.js';
import { isKeyStorageEvent, memoryStorage, readStoredKey } from '../src/session/keyStorage.js';
import { SessionStore, isTransientFailure } from '../src/session/store.js';
import { HttpError, NetworkError } from '../src/api/errors.js';
import { NonJsonAnswerError, createApiClient } from '../src/api/client.js';
import { makeCalls } from '../src/api/calls.js';
import { captureUrlKey } from '../src/session/urlKey.js';

const flush = () => new Promise((resolve) => setImmediate(resolve));

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('key in the address (docs/product.md §1.4)', () => {
  it('takes apiKey or token, non-blank, and removes it from the address', () => {
    assert.deepEqual(captureUrlKey('?apiKey=abc&tab=login'), { key: 'abc', search: '?tab=login', changed: true });
    assert.deepEqual(captureUrlKey('?token=xyz'), { key: 'xyz', search: '', changed: true });
    assert.deepEqual(captureUrlKey('?provider=google&apiKey=k1&next=%2Fdashboard'), { key: 'k1', search: '?provider=google&next=%2Fdashboard', changed: true });
  });

  it('ignores blank keys (but still cleans the address) and addresses without one', () => {
    assert.deepEqual(captureUrlKey('?apiKey=%20%20'), { key: null, search: '', changed: true });
    assert.deepEqual(captureUrlKey('?symbol=EURUSD'), { key: null, search: '?symbol=EURUSD', changed: false });
  });

  it('leaves a payment return token to the pricing page', () => {
    assert.deepEqual(captureUrlKey('?payment=paypal&status=success&token=PAYPAL-ORDER'), { key: null, search: '?payment=paypal&status=success&token=PAYPAL-ORDER', changed: false });
  });
});

describe('key storage', () => {
  it('reads apiKey first, then the older names, and recognises their storage events', () => {
    assert.equal(readStoredKey(memoryStorage({ apiKey: 'a', token: 'b' })), 'a');
    assert.equal(readStoredKey(memoryStorage({ token: 'b' })), 'b');
    assert.equal(readStoredKey(memoryStorage({ user: '{"token":"c"}' })), 'c');
    assert.equal(readStoredKey(memoryStorage({ apiKey: 'null' })), null);
    assert.ok(isKeyStorageEvent('apiKey') && isKeyStorageEvent(null) && !isKeyStorageEvent('btPins_v1'));
  });
});

/** A store signed in with key 'k1'; each key the server is asked to end is noted, then `answer` is its outcome. */
async function signedInStore(answer: () => Promise<void>) {
  const storage = memoryStorage({ apiKey: 'k1' });
  const revoked: string[] = [];
  const store = new SessionStore({
    storage,
    fetchProfile: async () => ({ email: 'a@b.fr' }),
    pingAdmin: async () => undefined,
    revokeKey: (key) => {
      revoked.push(key);
      return answer();
    },
  });
  await store.start(null);
  return { storage, revoked, store };
}

describe('session store', () => {
  it('logout forgets the key here and asks the server to end it; a failing call changes nothing', async () => {
    const { storage, revoked, store } = await signedInStore(() => Promise.reject(new Error('HTTP 401')));
    store.logout();
    await flush();
    assert.deepEqual(revoked, ['k1']);
    assert.equal(store.getState().status, 'anonymous');
    assert.equal(storage.getItem('apiKey'), null);
    store.logout();
    assert.deepEqual(revoked, ['k1'], 'no key, nothing to revoke');
  });

  it('logout after the account was deleted forgets the key without asking the server to end it again', async () => {
    // The deletion ended the key on the server: a revoke call would be refused (401 on the console).
    const { storage, revoked, store } = await signedInStore(() => Promise.resolve());
    store.logout({ revoke: false });
    await flush();
    assert.deepEqual(revoked, []);
    assert.equal(store.getState().status, 'anonymous');
    assert.equal(storage.getItem('apiKey'), null);
  });

  it('a key from the address is stored, shown as consuming, then ready with the profile', async () => {
    const storage = memoryStorage();
    const profile = deferred<Record<string, unknown>>();
    const store = new SessionStore({ storage, fetchProfile: () => profile.promise, pingAdmin: async () => undefined });
    void store.start('url-key');
    assert.equal(store.getState().status, 'consuming');
    assert.equal(storage.getItem('apiKey'), 'url-key');
    profile.resolve({ email: 'a@b.fr', credits: 4 });
    await flush();
    assert.equal(store.getState().status, 'ready');
    assert.equal(store.getState().user?.email, 'a@b.fr');
  });

  it('a failing profile fetch deletes the key and logs out', async () => {
    const storage = memoryStorage({ apiKey: 'stale' });
    const store = new SessionStore({ storage, fetchProfile: async () => Promise.reject(new Error('HTTP 401')), pingAdmin: async () => undefined });
    assert.equal(store.getState().status, 'loading');
    await store.start(null);
    assert.deepEqual([store.getState().status, store.getState().key, storage.getItem('apiKey')], ['anonymous', null, null]);
  });

  it('a stored key is kept through a failure that says nothing about it (no answer, 429, 5xx), and asked for again', async () => {
    for (const failure of [new NetworkError(new TypeError('Failed to fetch')), new HttpError(429, 'Trop de requêtes. Réessaie dans 12 s.', null), new HttpError(502, undefined, null), new HttpError(503, 'Serveur occupé', null)]) {
      const storage = memoryStorage({ apiKey: 'kept' });
      let fail = true;
      const store = new SessionStore({ storage, fetchProfile: async () => (fail ? Promise.reject(failure) : { email: 'a@b.fr', credits: 3 }), pingAdmin: async () => undefined });
      await store.start(null);
      assert.deepEqual([store.getState().status, store.getState().key, storage.getItem('apiKey')], ['unavailable', 'kept', 'kept'], failure.message);
      // Still failing: still kept.
      await store.retry();
      assert.equal(store.getState().status, 'unavailable');
      fail = false;
      const retried = store.retry();
      assert.equal(store.getState().status, 'loading');
      await retried;
      assert.deepEqual([store.getState().status, store.getState().user?.credits], ['ready', 3]);
    }
  });

  it('a 200 on /api/me whose body is not a user (a proxy\'s page) is a failed fetch, never the user: a stored key is kept, a sign-in forgotten', async () => {
    const html = new Response('<!doctype html><html><body>Maintenance</body></html>', { status: 200, headers: { 'Content-Type': 'text/html' } });
    const client = createApiClient({ fetch: async () => html.clone(), now: () => 0, location: () => ({ hostname: 'localhost', pathname: '/', search: '', hash: '' }), redirect: () => undefined, getKey: () => null, apiHost: '' });
    const calls = makeCalls(client);
    await assert.rejects(calls.me('kept'), NonJsonAnswerError);
    const storage = memoryStorage({ apiKey: 'kept' });
    const store = new SessionStore({ storage, fetchProfile: (key) => calls.me(key), pingAdmin: async () => undefined });
    await store.start(null);
    assert.deepEqual([store.getState().status, store.getState().user, store.getState().key, storage.getItem('apiKey')], ['unavailable', null, 'kept', 'kept']);
    const signInStorage = memoryStorage();
    const signIn = new SessionStore({ storage: signInStorage, fetchProfile: (key) => calls.me(key), pingAdmin: async () => undefined });
    await assert.rejects(signIn.login('new-key'), NonJsonAnswerError);
    assert.deepEqual([signIn.getState().status, signInStorage.getItem('apiKey')], ['anonymous', null]);
    // JSON that is not an object is not a user either; an object is.
    for (const body of ['null', '[]', '"ok"']) {
      const odd = makeCalls(createApiClient({ fetch: async () => new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } }), now: () => 0, location: () => ({ hostname: 'localhost', pathname: '/', search: '', hash: '' }), redirect: () => undefined, getKey: () => null, apiHost: '' }));
      await assert.rejects(odd.me('k'), NonJsonAnswerError, body);
    }
    const ok = makeCalls(createApiClient({ fetch: async () => new Response('{"email":"a@b.fr","credits":4}', { status: 200, headers: { 'Content-Type': 'application/json' } }), now: () => 0, location: () => ({ hostname: 'localhost', pathname: '/', search: '', hash: '' }), redirect: () => undefined, getKey: () => null, apiHost: '' }));
    assert.deepEqual(await ok.me('k'), { email: 'a@b.fr', credits: 4 });
    assert.equal(isTransientFailure(new NonJsonAnswerError('<html>')), true);
  });

  it('a refused stored key (401, 403) is still forgotten; a sign-in or a key from the address is forgotten on any failure', async () => {
    for (const refusal of [new HttpError(401, 'Clé API invalide ou expirée.', null), new HttpError(403, undefined, null)]) {
      const storage = memoryStorage({ apiKey: 'stale' });
      const store = new SessionStore({ storage, fetchProfile: async () => Promise.reject(refusal), pingAdmin: async () => undefined });
      await store.start(null);
      assert.deepEqual([store.getState().status, store.getState().key, storage.getItem('apiKey')], ['anonymous', null, null]);
    }
    const offline = new NetworkError(new TypeError('Failed to fetch'));
    const fromUrl = new SessionStore({ storage: memoryStorage(), fetchProfile: async () => Promise.reject(offline), pingAdmin: async () => undefined });
    await fromUrl.start('url-key');
    assert.deepEqual([fromUrl.getState().status, fromUrl.getState().key], ['anonymous', null]);
    const storage = memoryStorage();
    const signIn = new SessionStore({ storage, fetchProfile: async () => Promise.reject(offline), pingAdmin: async () => undefined });
    await assert.rejects(signIn.login('new-key'), /Erreur réseau/);
    assert.deepEqual([signIn.getState().status, storage.getItem('apiKey')], ['anonymous', null]);
    assert.equal(isTransientFailure(new HttpError(400, 'x', null)), false);
    assert.equal(isTransientFailure(new Error('boom')), false);
  });

  it('login stores the key and checks it; a refused key is cleared and the error raised', async () => {
    const storage = memoryStorage();
    const store = new SessionStore({ storage, fetchProfile: async (key) => (key === 'good' ? { username: 'ana' } : Promise.reject(new Error('HTTP 401'))), pingAdmin: async () => undefined });
    await assert.rejects(store.login('bad'), /HTTP 401/);
    assert.equal(storage.getItem('apiKey'), null);
    const user = await store.login('good');
    assert.equal(user.username, 'ana');
    assert.equal(store.getState().key, 'good');
    store.logout();
    assert.deepEqual([store.getState().key, store.getState().user, storage.getItem('apiKey')], [null, null, null]);
  });

  it('pings the admin endpoint once per key, and again only when the key changes (other tabs too)', async () => {
    const storage = memoryStorage({ apiKey: 'k1' });
    const pings: string[] = [];
    const store = new SessionStore({
      storage,
      // Profiles that do not say the role: the ping decides.
      fetchProfile: async () => ({ username: 'ana' }),
      pingAdmin: async (key) => {
        pings.push(key);
        if (key !== 'admin-key') throw new Error('HTTP 403');
      },
    });
    await store.start(null);
    assert.equal(await store.checkAdmin(), false);
    assert.equal(await store.checkAdmin(), false);
    assert.deepEqual(pings, ['k1']);
    assert.equal(store.getState().isAdmin, false);
    storage.setItem('apiKey', 'admin-key'); // written by another tab
    store.syncFromStorage();
    await flush();
    assert.equal(store.getState().status, 'ready');
    assert.equal(await store.checkAdmin(), true);
    assert.equal(store.getState().isAdmin, true);
    assert.deepEqual(pings, ['k1', 'admin-key']);
    storage.removeItem('apiKey');
    store.syncFromStorage();
    assert.deepEqual([store.getState().status, store.getState().isAdmin], ['anonymous', false]);
  });

  it('a profile that says the user is not an admin is not pinged (no 403 in the console); one that says admin is', async () => {
    const pings: string[] = [];
    const profiles: Record<string, Record<string, unknown>> = { user: { role: 'user', is_admin: false }, flag: { is_admin: 0 }, admin: { role: 'admin', is_admin: true } };
    const storage = memoryStorage({ apiKey: 'user' });
    const store = new SessionStore({ storage, fetchProfile: async (key) => profiles[key], pingAdmin: async (key) => void pings.push(key) });
    await store.start(null);
    assert.equal(await store.checkAdmin(), false);
    assert.deepEqual([pings, store.getState().adminPing, store.getState().isAdmin], [[], false, false]);
    await store.login('flag');
    assert.equal(await store.checkAdmin(), false);
    assert.deepEqual(pings, []);
    await store.login('admin');
    assert.equal(store.getState().isAdmin, true, 'the role lets an admin in at once');
    assert.equal(await store.checkAdmin(), true);
    assert.deepEqual(pings, ['admin'], 'and the ping confirms it');
  });

  it('credits in the answer of a paid call update the user', async () => {
    const store = new SessionStore({ storage: memoryStorage({ apiKey: 'k' }), fetchProfile: async () => ({ credits: 6 }), pingAdmin: async () => undefined });
    await store.start(null);
    store.patchUser({ credits: 4 });
    assert.equal(store.getState().user?.credits, 4);
  });
});

describe('credits across tabs', () => {
  /** Two tabs of one browser: what one publishes, the others hear (as BroadcastChannel does). */
  function sharedChannel() {
    const listeners = new Set<{ tab: number; fn: () => void }>();
    let published = 0;
    return {
      get published() {
        return published;
      },
      tab(tab: number) {
        return {
          publish() {
            published++;
            for (const l of listeners) if (l.tab !== tab) l.fn();
          },
          subscribe(fn: () => void) {
            const entry = { tab, fn };
            listeners.add(entry);
            return () => listeners.delete(entry);
          },
        };
      },
    };
  }

  it('a balance that changes in one tab is re-read by the others, which do not announce it again', async () => {
    let serverCredits = 5;
    const storage = memoryStorage({ apiKey: 'k' });
    const channel = sharedChannel();
    const make = (tab: number) => new SessionStore({ storage, fetchProfile: async () => ({ credits: serverCredits }), pingAdmin: async () => undefined, credits: channel.tab(tab) });
    const [a, b] = [make(1), make(2)];
    await Promise.all([a.start(null), b.start(null)]);
    serverCredits = 3; // a backtest in tab A
    a.patchUser({ credits: 3 });
    await flush();
    assert.deepEqual([a.getState().user?.credits, b.getState().user?.credits, channel.published], [3, 3, 1]);
    serverCredits = 15; // a purchase seen by tab B's refresh
    await b.refresh();
    await flush();
    assert.deepEqual([a.getState().user?.credits, b.getState().user?.credits, channel.published], [15, 15, 2]);
    await a.refresh(); // nothing changed: nothing announced
    a.patchUser({ email: 'x@y.z' });
    assert.equal(channel.published, 2);
  });

  it('a tab without a session ignores the news', async () => {
    const channel = sharedChannel();
    let fetched = 0;
    const anonymous = new SessionStore({ storage: memoryStorage(), fetchProfile: async () => ({ credits: ++fetched }), pingAdmin: async () => undefined, credits: channel.tab(2) });
    channel.tab(1).publish();
    await flush();
    assert.deepEqual([fetched, anonymous.getState().status], [0, 'anonymous']);
  });
});

describe('admin status', () => {
  it('shows the Admin entry on a successful ping, role admin or is_admin', () => {
    assert.equal(isAdminUser({ role: 'user' }, true), true);
    assert.equal(isAdminUser({ role: 'admin' }, false), true);
    assert.equal(isAdminUser({ is_admin: true }, null), true);
    assert.equal(isAdminUser({ role: 'user', is_admin: false }, false), false);
    assert.equal(isAdminUser(null, null), false);
  });

  it('reads the role the profile states: admin, user, or nothing', () => {
    assert.equal(profileRole({ role: 'admin' }), 'admin');
    assert.equal(profileRole({ is_admin: 'true' }), 'admin');
    assert.equal(profileRole({ role: 'user' }), 'user');
    assert.equal(profileRole({ is_admin: false }), 'user');
    assert.equal(profileRole({ role: '  ' }), null);
    assert.equal(profileRole({}), null);
    assert.equal(profileRole(null), null);
  });

  it('shares one pending ping and forgets it on reset', async () => {
    let calls = 0;
    const cache = new AdminStatusCache(async () => {
      calls++;
    });
    await Promise.all([cache.check('k'), cache.check('k')]);
    assert.equal(calls, 1);
    assert.equal(cache.peek('k'), true);
    cache.reset();
    assert.equal(cache.peek('k'), null);
    await cache.check('k');
    assert.equal(calls, 2);
    assert.equal(await cache.check(null), false);
  });
});
