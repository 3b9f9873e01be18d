import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AdminStatusCache, isAdminUser } from '../src/session/adminStatus.js';
import { isKeyStorageEvent, memoryStorage, readStoredKey } from '../src/session/keyStorage.js';
import { SessionStore } from '../src/session/store.js';
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

describe('key in the address (spec 1 §4)', () => {
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

describe('session store', () => {
  it('logout forgets the key here and asks the server to end it; a failing call changes nothing', async () => {
    const storage = memoryStorage({ apiKey: 'k1' });
    const revoked: string[] = [];
    const store = new SessionStore({
      storage,
      fetchProfile: async () => ({ email: 'a@b.fr' }),
      pingAdmin: async () => undefined,
      revokeKey: async (key) => {
        revoked.push(key);
        throw new Error('HTTP 401');
      },
    });
    await store.start(null);
    store.logout();
    await flush();
    assert.deepEqual(revoked, ['k1']);
    assert.equal(store.getState().status, 'anonymous');
    assert.equal(storage.getItem('apiKey'), null);
    store.logout();
    assert.deepEqual(revoked, ['k1'], 'no key, nothing to revoke');
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
      fetchProfile: async () => ({ role: 'user' }),
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

  it('credits in the answer of a paid call update the user', async () => {
    const store = new SessionStore({ storage: memoryStorage({ apiKey: 'k' }), fetchProfile: async () => ({ credits: 6 }), pingAdmin: async () => undefined });
    await store.start(null);
    store.patchUser({ credits: 4 });
    assert.equal(store.getState().user?.credits, 4);
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
