/**
 * Admin status (docs/product.md §1.4): a ping to /api/admin/ping, success meaning admin. One ping per key:
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

/**
 * What the profile itself says about the role: 'admin' (role admin or is_admin set), 'user' (a
 * role, or an is_admin flag, that is not admin), or null when it says neither. The admin ping is
 * asked only when this is not 'user' (docs/web.md "Session"): a non-admin's browser then never
 * logs a refused GET /api/admin/ping.
 */
export function profileRole(user: AdminFlags | null | undefined): 'admin' | 'user' | null {
  if (!user) return null;
  if (user.role === 'admin' || user.is_admin === true || user.is_admin === 1 || user.is_admin === 'true') return 'admin';
  if ((typeof user.role === 'string' && user.role.trim() !== '') || user.is_admin === false || user.is_admin === 0 || user.is_admin === 'false') return 'user';
  return null;
}

/** The Admin entry shows when the ping succeeded, or role is admin, or is_admin is set. */
export function isAdminUser(user: AdminFlags | null | undefined, pingSucceeded: boolean | null): boolean {
  if (pingSucceeded === true) return true;
  if (!user) return false;
  return user.role === 'admin' || user.is_admin === true || user.is_admin === 1 || user.is_admin === 'true';
}
