/** The console's calls bound to the app's client (runtime.ts). */
import { makeAdminCalls } from '../../api/admin.js';
import { makeFileFetcher, type DownloadedFile } from '../../api/files.js';
import { readStoredKey } from '../../session/keyStorage.js';
import { api, storage, toasts } from '../../runtime.js';
import { saveBlob } from '../../lib/saveBlob.js';
import { HiddenBacktests } from './hiddenBacktests.js';

export const admin = makeAdminCalls(
  api,
  makeFileFetcher({ fetch: (url, init) => globalThis.fetch(url, init), url: api.url, getKey: () => readStoredKey(storage) }),
);

export const hiddenBacktests = new HiddenBacktests(storage);

export function notify(text: string, kind: 'success' | 'error' | 'info' = 'success'): void {
  toasts.show(text, kind);
}

/** Saves a downloaded file under the server's name. */
export function save(file: DownloadedFile): void {
  saveBlob(file.blob, file.name);
}
