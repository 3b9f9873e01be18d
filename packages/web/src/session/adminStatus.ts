/**
 * Admin status (spec 1 §4): a ping to /api/admin/ping, success meaning admin. One ping per key:
 * the answer is cached and forgotten only when the stored key changes.
 */
export class AdminStatusCache {
  private key: string | null = null;
  private pending: Promise<boolean> | null = null;
  private value: boolean | null = null;

  constructor(private readonly ping: (key: string) => Promise<unknown>) {}

  /** The cached answer for this key, if known. */
  peek(key: string | null): boolean | null {
    return key !== null && key === this.key ? this.value : null;
  }

  check(key: string | null): Promise<boolean> {
    if (!key) return Promise.resolve(false);
    if (key === this.key && this.pending) return this.pending;
    this.key = key;
    this.value = null;
    const pending = this.ping(key).then(
      () => true,
      () => false,
    );
    this.pending = pending;
    void pending.then((value) => {
      if (this.pending === pending) this.value = value;
    });
    return pending;
  }

  reset(): void {
    this.key = null;
    this.pending = null;
    this.value = null;
  }
}

export interface AdminFlags {
  role?: unknown;
  is_admin?: unknown;
}

/** The Admin entry shows when the ping succeeded, or role is admin, or is_admin is set. */
export function isAdminUser(user: AdminFlags | null | undefined, pingSucceeded: boolean | null): boolean {
  if (pingSucceeded === true) return true;
  if (!user) return false;
  return user.role === 'admin' || user.is_admin === true || user.is_admin === 1 || user.is_admin === 'true';
}
