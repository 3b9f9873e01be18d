/** The console's calls bound to the app's client (runtime.ts). */
import { makeAdminCalls } from '../../api/admin.js';
import { api, storage, toasts } from '../../runtime.js';
import { saveBlob } from '../../lib/saveBlob.js';
import { HiddenBacktests } from './hiddenBacktests.js';

export const admin = makeAdminCalls(api);

export const hiddenBacktests = new HiddenBacktests(storage);

export function notify(text: string, kind: 'success' | 'error' | 'info' = 'success'): void {
  toasts.show(text, kind);
}

/** Saves a downloaded blob under the given name. */
export function save(blob: Blob, name: string): void {
  saveBlob(blob, name);
}
