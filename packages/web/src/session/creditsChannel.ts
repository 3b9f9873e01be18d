/**
 * Tells the other tabs of this browser that the credit balance changed (a backtest, a download, a
 * purchase), so their badge re-reads the profile instead of showing a stale number until reload.
 * BroadcastChannel where the browser has it, else a storage event on BT_CREDITS_KEY. Messages
 * carry no key and no balance: each tab asks the server for its own profile.
 */
export interface CreditsChannel {
  publish(): void;
  subscribe(listener: () => void): () => void;
}

export const BT_CREDITS_CHANNEL = 'bt-credits';
export const BT_CREDITS_KEY = 'btCreditsChanged';

export function browserCreditsChannel(): CreditsChannel | undefined {
  if (typeof window === 'undefined') return undefined;
  if (typeof BroadcastChannel === 'function') {
    const channel = new BroadcastChannel(BT_CREDITS_CHANNEL);
    return {
      publish: () => channel.postMessage({ at: Date.now() }),
      subscribe(listener) {
        const onMessage = () => listener();
        channel.addEventListener('message', onMessage);
        return () => channel.removeEventListener('message', onMessage);
      },
    };
  }
  return {
    publish() {
      try {
        window.localStorage.setItem(BT_CREDITS_KEY, String(Date.now()));
      } catch {
        // Storage refused (private mode, quota): other tabs catch up on their next profile read.
      }
    },
    subscribe(listener) {
      const onStorage = (event: StorageEvent) => event.key === BT_CREDITS_KEY && listener();
      window.addEventListener('storage', onStorage);
      return () => window.removeEventListener('storage', onStorage);
    },
  };
}
