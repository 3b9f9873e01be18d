/**
 * The Backtests tab's 'hide' (docs/product.md §3.2, §3.9): front-only, a list of summary ids kept in browser
 * storage under admin_hidden_backtests_v1. A damaged or foreign value reads as nothing hidden.
 */
export const HIDDEN_BACKTESTS_KEY = 'admin_hidden_backtests_v1';
/** The list is bounded so a long-lived console cannot grow storage forever (oldest go first). */
export const HIDDEN_BACKTESTS_CAP = 5000;

export interface HiddenStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export function parseHidden(raw: string | null): string[] {
  if (!raw) return [];
  try {
    const list = JSON.parse(raw) as unknown;
    if (!Array.isArray(list)) return [];
    const ids = list.filter((v) => (typeof v === 'string' && v !== '') || (typeof v === 'number' && Number.isFinite(v))).map(String);
    return [...new Set(ids)];
  } catch {
    return [];
  }
}

export class HiddenBacktests {
  private ids: string[];
  private readonly listeners = new Set<() => void>();

  constructor(private readonly storage: HiddenStorage) {
    this.ids = parseHidden(this.read());
  }

  has(id: string | number): boolean {
    return this.ids.includes(String(id));
  }

  list(): readonly string[] {
    return this.ids;
  }

  hide(id: string | number): void {
    const key = String(id);
    if (this.ids.includes(key)) return;
    this.ids = [...this.ids, key].slice(-HIDDEN_BACKTESTS_CAP);
    this.write();
  }

  unhideAll(): void {
    this.ids = [];
    try {
      this.storage.removeItem(HIDDEN_BACKTESTS_KEY);
    } catch {
      // Storage refused (private mode): the in-page list still changes.
    }
    this.emit();
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): readonly string[] => this.ids;

  private read(): string | null {
    try {
      return this.storage.getItem(HIDDEN_BACKTESTS_KEY);
    } catch {
      return null;
    }
  }

  private write(): void {
    try {
      this.storage.setItem(HIDDEN_BACKTESTS_KEY, JSON.stringify(this.ids));
    } catch {
      // Quota or private mode: hidden for this page only.
    }
    this.emit();
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}
