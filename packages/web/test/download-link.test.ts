import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpError, NetworkError } from '../src/api/errors.js';
import { DOWNLOAD_FAILED_MESSAGE, NotAFileError, downloadFailureMessage, makeLinkedFileFetcher } from '../src/api/files.js';
import { makeCalls } from '../src/api/calls.js';
import { createApiClient } from '../src/api/client.js';

const HREF = '/api/download/EURUSD_M15_x.xlsx?folder=EURUSD_M15_x&apiKey=k-1';

function fetcher(answer: () => Response | Promise<Response>, key: string | null = 'k-1') {
  const sent: { url: string; init: RequestInit }[] = [];
  const fetchLinkedFile = makeLinkedFileFetcher({
    fetch: async (url, init) => {
      sent.push({ url, init });
      return answer();
    },
    getKey: () => key,
  });
  return { fetchLinkedFile, sent };
}

describe('the workbook download link, fetched before it is saved', () => {
  it('keeps the spec\'s address (?folder&apiKey) and also sends the key header', async () => {
    const client = createApiClient({ fetch: async () => new Response('{}'), now: () => 0, location: () => ({ hostname: 'localhost', pathname: '/', search: '', hash: '' }), redirect: () => undefined, getKey: () => 'k-1', apiHost: '' });
    assert.equal(makeCalls(client).downloadUrl('EURUSD_M15_x.xlsx', 'EURUSD_M15_x', 'k-1'), HREF);
    const zip = new Uint8Array([0x50, 0x4b, 3, 4]);
    const { fetchLinkedFile, sent } = fetcher(
      () => new Response(zip, { status: 200, headers: { 'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'Content-Disposition': 'attachment; filename="EURUSD_M15_x.xlsx"' } }),
    );
    const got = await fetchLinkedFile(HREF, 'fallback.xlsx');
    assert.equal(got.name, 'EURUSD_M15_x.xlsx');
    assert.deepEqual(new Uint8Array(await got.blob.arrayBuffer()), zip);
    assert.equal(sent[0].url, HREF);
    assert.deepEqual(sent[0].init.headers, { 'X-API-Key': 'k-1' });
    // Without a Content-Disposition the link's own name is kept.
    const bare = fetcher(() => new Response(zip, { status: 200, headers: { 'Content-Type': 'application/octet-stream' } }));
    assert.equal((await bare.fetchLinkedFile(HREF, 'EURUSD_M15_x.xlsx')).name, 'EURUSD_M15_x.xlsx');
  });

  it('a refusal, no answer, or a JSON or HTML 200 is not saved: it is a French message', async () => {
    const refused = fetcher(() => new Response(JSON.stringify({ detail: 'Fichier introuvable' }), { status: 404, statusText: 'Not Found', headers: { 'Content-Type': 'application/json' } }));
    const notFound = await refused.fetchLinkedFile(HREF, 'x.xlsx').catch((e: unknown) => e);
    assert.ok(notFound instanceof HttpError && notFound.status === 404);
    assert.equal(downloadFailureMessage(notFound), 'Téléchargement impossible. Fichier introuvable');

    const offline = fetcher(() => Promise.reject(new TypeError('Failed to fetch')));
    const cut = await offline.fetchLinkedFile(HREF, 'x.xlsx').catch((e: unknown) => e);
    assert.ok(cut instanceof NetworkError);
    assert.equal(downloadFailureMessage(cut), 'Téléchargement impossible. Erreur réseau.');

    for (const type of ['application/json; charset=utf-8', 'text/html']) {
      const page = fetcher(() => new Response('{"detail":"x"}', { status: 200, headers: { 'Content-Type': type } }));
      const wrong = await page.fetchLinkedFile(HREF, 'x.xlsx').catch((e: unknown) => e);
      assert.ok(wrong instanceof NotAFileError, type);
      assert.equal(downloadFailureMessage(wrong), DOWNLOAD_FAILED_MESSAGE);
    }
    assert.equal(downloadFailureMessage(new HttpError(500, undefined, undefined)), 'Téléchargement impossible.');
    assert.equal(DOWNLOAD_FAILED_MESSAGE, 'Téléchargement impossible.');
  });
});
