/**
 * The page-loading bar (docs/product.md §1.2, §1.9): starts at 8 %, advances every 180 ms toward 90 %, jumps to
 * 100 % when the work ends and hides 320 ms later. Several loads may overlap; the bar finishes
 * when the last one ends. Each step covers a tenth of the distance left to 90 plus half a point,
 * so the bar moves fast first and slows near the cap (the spec fixes the bounds, not the curve).
 */

export const LOADING_BAR = { min: 8, cap: 90, tickMs: 180, hideAfterMs: 320 } as const;

export interface Timers {
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface LoadingBarState {
  readonly value: number;
  readonly visible: boolean;
}

export function nextLoadingValue(value: number): number {
  const step = (LOADING_BAR.cap - value) * 0.1 + 0.5;
  return Math.min(LOADING_BAR.cap, value + step);
}

export class LoadingBarController {
  private state: LoadingBarState = { value: 0, visible: false };
  private active = 0;
  private ticker: unknown = null;
  private hider: unknown = null;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly timers: Timers) {}

  getState = (): LoadingBarState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Begins one load; returns the function that ends it (idempotent). */
  start(): () => void {
    this.active++;
    if (this.hider !== null) {
      this.timers.clearTimeout(this.hider);
      this.hider = null;
    }
    if (this.ticker === null) {
      const from = this.state.visible && this.state.value < 100 ? this.state.value : 0;
      this.set({ value: Math.max(LOADING_BAR.min, from), visible: true });
      this.ticker = this.timers.setInterval(() => this.set({ value: nextLoadingValue(this.state.value), visible: true }), LOADING_BAR.tickMs);
    }
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.end();
    };
  }

  /** Tracks a promise: the bar runs until it settles. */
  track<T>(promise: Promise<T>): Promise<T> {
    const end = this.start();
    return promise.finally(end);
  }

  private end(): void {
    this.active = Math.max(0, this.active - 1);
    if (this.active > 0) return;
    if (this.ticker !== null) this.timers.clearInterval(this.ticker);
    this.ticker = null;
    this.set({ value: 100, visible: true });
    this.hider = this.timers.setTimeout(() => {
      this.hider = null;
      this.set({ value: 0, visible: false });
    }, LOADING_BAR.hideAfterMs);
  }

  private set(state: LoadingBarState): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }
}
