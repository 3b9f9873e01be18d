/**
 * The pins list in browser storage under btPins_v1 (docs/product.md §2.3), newest first, capped. One store
 * per page: every view subscribes to it (in-page changes), and the page's `storage` events feed
 * handleStorageEvent so another tab's change reaches every view here too (docs/product.md §2.4).
 */
import { parsePin, pinId, type NewPin, type Pin } from './pin.js';

export const PINS_STORAGE_KEY = 'btPins_v1';
/** Oldest pins fall off past this many (docs/product.md §2.3 "capped"; the number is ours: docs/web.md). */
export const PINS_CAP = 200;

export interface PinStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export function parsePins(raw: string | null): Pin[] {
  if (!raw) return [];
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(list)) return [];
  const seen = new Set<string>();
  const pins: Pin[] = [];
  for (const entry of list) {
    const pin = parsePin(entry);
    if (!pin || seen.has(pin.id)) continue;
    seen.add(pin.id);
    pins.push(pin);
  }
  return pins.slice(0, PINS_CAP);
}

export class PinStore {
  private pins: Pin[];
  private raw: string | null;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly storage: PinStorage,
    private readonly now: () => number = () => Date.now(),
    private readonly cap = PINS_CAP,
  ) {
    this.raw = this.read();
    this.pins = parsePins(this.raw).slice(0, cap);
  }

  private read(): string | null {
    try {
      return this.storage.getItem(PINS_STORAGE_KEY);
    } catch {
      return null;
    }
  }

  /** The current list (same array until it changes, as useSyncExternalStore needs). */
  getPins = (): readonly Pin[] => this.pins;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  has(id: string): boolean {
    return this.pins.some((pin) => pin.id === id);
  }

  /** Adds a pin, or refreshes the one with the same folder, type, bucket and metric (moved first). */
  pin(entry: NewPin): Pin {
    const pin: Pin = { ...entry, id: pinId(entry), pinnedAt: entry.pinnedAt ?? this.now() };
    if (pin.type !== 'per-hour') delete pin.tz;
    this.commit([pin, ...this.pins.filter((p) => p.id !== pin.id)].slice(0, this.cap));
    return pin;
  }

  unpin(id: string): void {
    if (!this.has(id)) return;
    this.commit(this.pins.filter((pin) => pin.id !== id));
  }

  toggle(entry: NewPin): boolean {
    const id = pinId(entry);
    if (this.has(id)) {
      this.unpin(id);
      return false;
    }
    this.pin(entry);
    return true;
  }

  /** A `storage` event of this page: another tab changed the pins (or cleared the storage). */
  handleStorageEvent(key: string | null): void {
    if (key !== null && key !== PINS_STORAGE_KEY) return;
    const raw = this.read();
    if (raw === this.raw) return;
    this.raw = raw;
    this.pins = parsePins(raw).slice(0, this.cap);
    this.emit();
  }

  private commit(pins: Pin[]): void {
    this.pins = pins;
    const raw = JSON.stringify(pins);
    try {
      this.storage.setItem(PINS_STORAGE_KEY, raw);
      this.raw = raw;
    } catch {
      // Storage full or disabled: the pins still live for this page.
    }
    this.emit();
  }

  private emit(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
