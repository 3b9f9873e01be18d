import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NonJsonAnswerError, createApiClient, isNonJsonAnswer, type ClientDeps } from '../src/api/client.js';
import { makeCalls, makeWorkAreaCalls } from '../src/api/calls.js';
import { HttpError, NETWORK_ERROR_MESSAGE, NetworkError, errorDetail, formatHttpError } from '../src/api/errors.js';
import { makeFileFetcher } from '../src/api/files.js';
import { backtestFailureMessage } from '../src/pages/backtest/result.js';
import { resolveApiUrl, normalizeApiHost } from '../src/api/url.js';

interface Sent {
  url: string;
  init: RequestInit;
}

function harness(options: { responses?: (url: string, init: RequestInit) => Response; key?: string | null; hostname?: string; pathname?: string; search?: string; hash?: string; apiHost?: string } = {}) {
  const sent: Sent[] = [];
  const redirects: string[] = [];
  let now = 1_000;
  const location = { hostname: options.hostname ?? 'localhost', pathname: options.pathname ?? '/backtest', search: options.search ?? '?symbol=EURUSD', hash: options.hash ?? '#top' };
  const deps: ClientDeps = {
    fetch: async (url, init) => {
      sent.push({ url, init });
      return options.responses ? options.responses(url, init) : new Response(JSON.stringify({ ok: true, n: sent.length }), { status: 200 });
    },
    now: () => now,
    location: () => location,
    redirect: (url) => void redirects.push(url),
    getKey: () => (options.key === undefined ? 'key-123' : options.key),
    apiHost: options.apiHost ?? '',
  };
  return { client: createApiClient(deps), sent, redirects, tick: (ms: number) => (now += ms), location };
}

const header = (init: RequestInit, name: string) => (init.headers as Record<string, string>)[name];

describe('shared client: keys and bodies', () => {
  it('sends the key in X-API-Key, and as Bearer or query parameter only when asked', async () => {
    const { client, sent } = harness();
    await client.get('/api/me');
    assert.equal(header(sent[0].init, 'X-API-Key'), 'key-123');
    assert.equal(header(sent[0].init, 'Authorization'), undefined);
    await client.post('/api/x', { a: 1 }, { bearer: true, keyQuery: 'token' });
    assert.equal(header(sent[1].init, 'Authorization'), 'Bearer key-123');
    assert.equal(sent[1].url, '/api/x?token=key-123');
  });

  it('sends no key on calls marked without auth', async () => {
    const { client, sent } = harness();
    await client.get('/api/top-strategy', { auth: false });
    assert.equal(header(sent[0].init, 'X-API-Key'), undefined);
  });

  it('serialises plain bodies as JSON and passes form data as it is', async () => {
    const { client, sent } = harness();
    await client.post('/api/login', { identifier: 'a', password: 'b' });
    assert.equal(header(sent[0].init, 'Content-Type'), 'application/json');
    assert.equal(sent[0].init.body, '{"identifier":"a","password":"b"}');
    const form = new FormData();
    form.append('file', new Blob(['x']), 'x.csv');
    await client.post('/api/upload_csv_and_backtest', form);
    assert.equal(sent[1].init.body, form);
    assert.equal(header(sent[1].init, 'Content-Type'), undefined, 'the browser sets the multipart boundary');
  });

  it('reads JSON, wraps non-JSON text, and reads blobs, array buffers and text', async () => {
    const bodies: Record<string, string> = { '/api/json': '{"a":1}', '/api/html': '<html>oops</html>', '/api/bin': 'PK\u0003\u0004' };
    const { client } = harness({ responses: (url) => new Response(bodies[url.split('?')[0]], { status: 200 }) });
    assert.deepEqual(await client.get('/api/json'), { a: 1 });
    assert.deepEqual(await client.get('/api/html'), { nonJson: true, text: '<html>oops</html>' });
    const blob = await client.get<Blob>('/api/bin', { as: 'blob' });
    assert.equal(blob.size, 4);
    const buffer = await client.get<ArrayBuffer>('/api/bin', { as: 'arrayBuffer' });
    assert.equal(new Uint8Array(buffer)[0], 0x50);
    assert.equal(await client.get('/api/html', { as: 'text' }), '<html>oops</html>');
  });
});

describe('shared client: GET de-duplication (250 ms)', () => {
  it('shares one response between identical GETs within 250 ms', async () => {
    const { client, sent, tick } = harness();
    const first = client.get('/api/top-strategy', { auth: false });
    tick(249);
    const second = client.get('/api/top-strategy', { auth: false });
    assert.equal(first, second);
    assert.deepEqual(await first, await second);
    assert.equal(sent.length, 1);
  });

  it('sends again at 250 ms, and never merges different URLs, keys, answer kinds or POSTs', async () => {
    const { client, sent, tick } = harness();
    await client.get('/api/a');
    tick(250);
    await client.get('/api/a');
    assert.equal(sent.length, 2);
    await Promise.all([client.get('/api/a', { query: { x: 1 } }), client.get('/api/a', { query: { x: 2 } })]);
    assert.equal(sent.length, 4);
    await Promise.all([client.get('/api/b', { as: 'text' }), client.get('/api/b', { as: 'json' })]);
    assert.equal(sent.length, 6);
    await Promise.all([client.post('/api/c', { a: 1 }), client.post('/api/c', { a: 1 })]);
    assert.equal(sent.length, 8);
  });

  it('shares a failure too', async () => {
    const { client, sent } = harness({ responses: () => new Response('{"detail":"non"}', { status: 500 }) });
    const results = await Promise.allSettled([client.get('/api/a'), client.get('/api/a')]);
    assert.equal(sent.length, 1);
    assert.ok(results.every((r) => r.status === 'rejected'));
  });

  it('never shares a read across a write: a list reloaded within 250 ms of a deletion is read again', async () => {
    const { client, sent, tick } = harness();
    const query = { type: 'import' };
    const before = await client.get<{ n: number }>('/api/admin/strategies/recent', { query });
    tick(10);
    await client.del('/api/admin/strategies/archive', { query: { type: 'import', id: 1 } });
    tick(10);
    const after = await client.get<{ n: number }>('/api/admin/strategies/recent', { query });
    assert.equal(sent.length, 3, 'the read after the write is sent');
    assert.notEqual(after.n, before.n);
    // Reads with no write between them are still shared.
    tick(10);
    assert.equal(client.get('/api/admin/strategies/recent', { query }), client.get('/api/admin/strategies/recent', { query }));
  });

  it('a GET that spends credits (a library month, an extraction) is a write: the balance read after it is read again', async () => {
    const { client, sent, tick } = harness();
    const work = makeWorkAreaCalls(client);
    for (const spend of [() => work.downloadCsv('EU50/H1/EU50_H1_2023-01.csv'), () => work.extract({ symbol: 'EURUSD', timeframe: 'M15', start_date: '2023-01-02', end_date: '2023-01-05' })]) {
      const count = sent.length;
      const before = await client.get<{ n: number }>('/api/me');
      tick(10);
      await spend();
      tick(10);
      const after = await client.get<{ n: number }>('/api/me');
      assert.equal(sent.length, count + 3, 'the balance after the spending is sent for, not the one read before');
      assert.notEqual(after.n, before.n);
      tick(250);
    }
    // The same spending twice within 250 ms is sent twice (the server decides what each costs).
    await Promise.all([work.downloadCsv('EU50/H1/EU50_H1_2023-02.csv'), work.downloadCsv('EU50/H1/EU50_H1_2023-02.csv')]);
    assert.equal(sent.filter((s) => s.url.includes('2023-02')).length, 2);
  });

  it('a read sent while a write is in flight is not shared with a read sent once it has settled', async () => {
    const sent: string[] = [];
    let finishWrite: () => void = () => {};
    const client = createApiClient({
      fetch: async (url, init) => {
        sent.push(`${init.method} ${url}`);
        if (init.method === 'PATCH') await new Promise<void>((resolve) => (finishWrite = resolve));
        return new Response(JSON.stringify({ n: sent.length }), { status: 200 });
      },
      now: () => 1_000,
      location: () => ({ hostname: 'localhost', pathname: '/admin', search: '', hash: '' }),
      redirect: () => {},
      getKey: () => 'key-123',
      apiHost: '',
    });
    const write = client.patch('/api/admin/strategies/archive/restore-all', undefined, { query: { type: 'import' } });
    const during = client.get('/api/admin/strategies/recent');
    await during;
    finishWrite();
    await write;
    const later = client.get('/api/admin/strategies/recent');
    assert.notEqual(later, during);
    assert.notDeepEqual(await later, await during);
    assert.deepEqual(sent.map((s) => s.split(' ')[0]), ['PATCH', 'GET', 'GET']);
  });

  it('forgets a failure once it has settled: a retry within 250 ms is sent', async () => {
    const { client, sent } = harness({ responses: () => new Response('{"detail":"non"}', { status: 500 }) });
    await assert.rejects(client.get('/api/a'));
    await assert.rejects(client.get('/api/a'));
    assert.equal(sent.length, 2);
  });
});

describe('shared client: errors and redirects (docs/product.md §1.8)', () => {
  it('throws HTTP {status} — {detail} from detail, then message, then error', async () => {
    const bodies = ['{"detail":"Crédits insuffisants"}', '{"message":"Trop de requêtes"}', '{"error":"Boom"}', 'plain text', ''];
    let i = 0;
    const { client } = harness({ responses: () => new Response(bodies[i++], { status: 402 }) });
    const messages: string[] = [];
    for (let n = 0; n < bodies.length; n++) {
      await client.post('/api/run_backtest', {}).catch((e: HttpError) => messages.push(e.message));
    }
    assert.deepEqual(messages, ['HTTP 402 — Crédits insuffisants', 'HTTP 402 — Trop de requêtes', 'HTTP 402 — Boom', 'HTTP 402', 'HTTP 402']);
    assert.equal(formatHttpError(404, undefined), 'HTTP 404');
    assert.equal(errorDetail({ detail: [{ msg: 'a' }, { msg: 'b' }] }), 'a; b');
  });

  it('sends a 401 on an authenticated call to /login?next={path, query, hash}', async () => {
    const { client, redirects } = harness({ responses: () => new Response('{"detail":"Non authentifié"}', { status: 401 }) });
    await assert.rejects(client.get('/api/user/strategies'), (e: HttpError) => e.status === 401);
    assert.deepEqual(redirects, [`/login?next=${encodeURIComponent('/backtest?symbol=EURUSD#top')}`]);
  });

  it('does not redirect from /login, on calls without auth, or when the call opts out', async () => {
    const unauthorized = () => new Response('{}', { status: 401 });
    const onLogin = harness({ responses: unauthorized, pathname: '/login', search: '', hash: '' });
    await onLogin.client.get('/api/me').catch(() => undefined);
    assert.deepEqual(onLogin.redirects, []);
    const anonymous = harness({ responses: unauthorized });
    await anonymous.client.post('/api/login', {}, { auth: false }).catch(() => undefined);
    await anonymous.client.get('/api/me', { redirectOnAuthError: false }).catch(() => undefined);
    assert.deepEqual(anonymous.redirects, []);
  });

  it('redirects a 403 except on admin API paths', async () => {
    const { client, redirects } = harness({ responses: () => new Response('{}', { status: 403 }) });
    await client.get('/api/admin/ping').catch(() => undefined);
    await client.get('/api/admin/get_users').catch(() => undefined);
    assert.deepEqual(redirects, []);
    await client.get('/api/user/backtests').catch(() => undefined);
    assert.equal(redirects.length, 1);
  });
});

describe('shared client: a request that gets no answer', () => {
  // What Chromium, Firefox and Safari reject fetch with when the network is down.
  const browserFailures = [new TypeError('Failed to fetch'), new TypeError('NetworkError when attempting to fetch resource.'), new TypeError('Load failed')];

  it('rejects with the French "Erreur réseau." instead of the browser\'s English words', async () => {
    for (const failure of browserFailures) {
      const client = createApiClient({
        fetch: async () => {
          throw failure;
        },
        now: () => 0,
        location: () => ({ hostname: 'localhost', pathname: '/backtest', search: '', hash: '' }),
        redirect: () => {},
        getKey: () => 'k',
        apiHost: '',
      });
      await assert.rejects(client.post('/api/run_backtest', {}), (e: Error) => {
        assert.ok(e instanceof NetworkError);
        assert.ok(e instanceof TypeError, 'still a TypeError for the pages that test for one');
        assert.equal(e.message, NETWORK_ERROR_MESSAGE);
        assert.equal(e.message, 'Erreur réseau.');
        return true;
      });
    }
  });

  it('a body cut off mid-way is a network error too', async () => {
    const { client } = harness({
      responses: () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.error(new TypeError('network error'));
            },
          }),
          { status: 200 },
        ),
    });
    await assert.rejects(client.get('/api/user/csvs', { as: 'blob' }), (e: Error) => e instanceof NetworkError && e.message === 'Erreur réseau.');
  });

  it('keeps an abort as it is (the home page tells its 6 s timeout by it)', async () => {
    const client = createApiClient({
      fetch: async () => {
        throw new DOMException('The operation was aborted.', 'AbortError');
      },
      now: () => 0,
      location: () => ({ hostname: 'localhost', pathname: '/', search: '', hash: '' }),
      redirect: () => {},
      getKey: () => null,
      apiHost: '',
    });
    await assert.rejects(client.get('/api/top-strategy', { auth: false }), (e: Error) => e.name === 'AbortError' && !(e instanceof NetworkError));
  });

  it('HTTP errors stay HTTP errors', async () => {
    const { client } = harness({ responses: () => new Response('{"detail":"Crédits insuffisants"}', { status: 402 }) });
    await assert.rejects(client.post('/api/run_backtest', {}), (e: Error) => e instanceof HttpError && !(e instanceof NetworkError));
  });

  it('the backtest form shows it in French', async () => {
    assert.equal(backtestFailureMessage(new NetworkError(new TypeError('Failed to fetch')), 'official'), 'Erreur réseau.');
  });

  it('file downloads (admin console) too', async () => {
    const fetchFile = makeFileFetcher({
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
      url: (path) => path,
      getKey: () => 'k',
    });
    await assert.rejects(fetchFile('/api/admin/fs/download', { root: 'data', path: 'a.csv' }, 'a.csv'), (e: Error) => e.message === 'Erreur réseau.');
  });
});

describe('calls whose answer is the user\'s data: a body that is not JSON', () => {
  // What a proxy, or static hosting serving the app's index.html for a wrong API address, answers.
  const html = () => new Response('<!doctype html><html><body>bt</body></html>', { status: 200, headers: { 'Content-Type': 'text/html' } });

  it('is a failed load (the page says so), never an empty list', async () => {
    const { client } = harness({ responses: html });
    const calls = makeCalls(client);
    const work = makeWorkAreaCalls(client);
    for (const [name, call] of [
      ['user backtests', () => calls.userBacktests({ sort: 'winrate-desc', limit: 9, offset: 0 })],
      ['user strategies', () => calls.userStrategies()],
      ['user CSVs', () => calls.userCsvs()],
      ['datasets', () => calls.datasets()],
      ['compare options', () => work.compareOptions()],
      ['compare data', () => work.compareData(['1'], 'session')],
      ['CSV library', () => work.csvLibrary()],
      ['recent extractions', () => work.recentExtractions()],
    ] as const) {
      await assert.rejects(call(), (e: Error) => e instanceof NonJsonAnswerError && e.message === 'Erreur serveur (réponse non-JSON)', name);
    }
  });

  it('a backtest still gets the answer itself, for its own message', async () => {
    const { client } = harness({ responses: html });
    assert.ok(isNonJsonAnswer(await makeCalls(client).runBacktest({})));
  });
});

describe('API host setting', () => {
  it('keeps /api/ calls on the page origin on localhost, sends them to the host elsewhere', () => {
    assert.equal(resolveApiUrl('/api/me', 'https://api.bt.example', { hostname: 'localhost' }), '/api/me');
    assert.equal(resolveApiUrl('/api/me', 'https://api.bt.example', { hostname: '127.0.0.1' }), '/api/me');
    assert.equal(resolveApiUrl('/api/me', 'https://api.bt.example', { hostname: 'bt.example' }), 'https://api.bt.example/api/me');
    assert.equal(resolveApiUrl('api/profile/update', 'https://api.bt.example', { hostname: 'bt.example' }), 'https://api.bt.example/api/profile/update');
    assert.equal(resolveApiUrl('/favicon.svg', 'https://api.bt.example', { hostname: 'bt.example' }), '/favicon.svg');
    assert.equal(resolveApiUrl('/api/me', '', { hostname: 'bt.example' }), '/api/me');
  });

  it('normalises the setting and refuses what is not an http(s) origin', () => {
    assert.equal(normalizeApiHost(' https://api.bt.example/ '), 'https://api.bt.example');
    assert.equal(normalizeApiHost(undefined), '');
    assert.throws(() => normalizeApiHost('api.bt.example'), /invalid apiHost: api\.bt\.example/);
  });

  it('builds download links on the configured host with the key as a query parameter', async () => {
    const { client } = harness({ hostname: 'bt.example', apiHost: 'https://api.bt.example' });
    assert.equal(client.url('/api/download/a.xlsx', { folder: 'EURUSD_M15_x', apiKey: 'k' }), 'https://api.bt.example/api/download/a.xlsx?folder=EURUSD_M15_x&apiKey=k');
  });
});
