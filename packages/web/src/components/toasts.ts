/**
 * Toasts: the app's short confirmations (they last 2.5 to 3.5 s, docs/web.md). A small store with
 * its timers injected, so node:test drives it; Toaster.tsx shows it.
 */

/** How long a toast stays (inside the product's 2.5–3.5 s). */
export const TOAST_MS = 3000;
/** At most this many at once: an older one leaves when a new one comes. */
export const TOAST_LIMIT = 3;

export type ToastKind = 'success' | 'info' | 'error';

export interface Toast {
  readonly id: number;
  readonly text: string;
  readonly kind: ToastKind;
}

export interface ToastTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export class ToastStore {
  private list: readonly Toast[] = [];
  private readonly timers = new Map<number, unknown>();
  private readonly listeners = new Set<() => void>();
  private next = 1;

  constructor(private readonly clock: ToastTimers, private readonly durationMs = TOAST_MS) {}

  show(text: string, kind: ToastKind = 'success'): number {
    const id = this.next++;
    const kept = this.list.slice(-(TOAST_LIMIT - 1));
    for (const gone of this.list.slice(0, this.list.length - kept.length)) this.clearTimer(gone.id);
    this.list = [...kept, { id, text, kind }];
    this.timers.set(id, this.clock.setTimeout(() => this.dismiss(id), this.durationMs));
    this.emit();
    return id;
  }

  dismiss(id: number): void {
    if (!this.list.some((t) => t.id === id)) return;
    this.clearTimer(id);
    this.list = this.list.filter((t) => t.id !== id);
    this.emit();
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): readonly Toast[] => this.list;

  private clearTimer(id: number): void {
    const handle = this.timers.get(id);
    if (handle !== undefined) this.clock.clearTimeout(handle);
    this.timers.delete(id);
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}
