/** The page's one pin store, bound to localStorage and to other tabs' `storage` events. */
import { useSyncExternalStore } from 'react';
import { storage } from '../../runtime.js';
import { PinStore } from './store.js';
import type { Pin } from './pin.js';

export const pinStore = new PinStore(storage);

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.storageArea && event.storageArea !== (storage as unknown)) return;
    pinStore.handleStorageEvent(event.key);
  });
}

/** Every pin, re-rendered on any change in this page or another tab. */
export function usePins(): readonly Pin[] {
  return useSyncExternalStore(pinStore.subscribe, pinStore.getPins, pinStore.getPins);
}
