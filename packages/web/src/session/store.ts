/**
 * The session (docs/product.md §1.4) as a small observable store, independent of React so its transitions
 * are testable: key from the address, profile fetch, login, logout, admin status, other tabs.
 */
import { decideAddressKey, sameAccount } from './addressKey.js';
import { AdminStatusCache, isAdminUser, profileRole } from './adminStatus.js';
import type { CreditsChannel } from './creditsChannel.js';
import { clearStoredKey, readStoredKey, storeKey, type KeyValueStorage } from './keyStorage.js';
import { HttpError, NetworkError } from '../api/errors.js';
import { NonJsonAnswerError } from '../api/client.js';
import { answerKey } from '../api/calls.js';
import { creditBalance } from '../shell/credits.js';
import type { UserProfile } from './types.js';

export type SessionStatus = 'anonymous' | 'consuming' | 'loading' | 'ready' | 'unavailable';

/**
 * A profile fetch that says nothing about the key: no answer, a rate limit (the server allows a key
 * 300 calls a minute), a server error, a 200 whose body is not a user (a proxy's page). A stored key
 * is kept through these: forgetting it logged a trader out of every tab for a busy minute or a
 * restart. A refusal (401, 403) still forgets it.
 */
export function isTransientFailure(error: unknown): boolean {
  if (error instanceof NetworkError || error instanceof NonJsonAnswerError) return true;
  return error instanceof HttpError && (error.status === 408 || error.status === 429 || error.status >= 500);
}

export interface SessionState {
  readonly key: string | null;
  readonly user: UserProfile | null;
  /**
   * anonymous: no key; consuming: a key from the address is being checked; loading: profile fetch;
   * unavailable: a stored key whose profile could not be read for now (kept; `retry` asks again).
   */
  readonly status: SessionStatus;
  /** Result of the admin ping for this key (null until known). */
  readonly adminPing: boolean | null;
  readonly isAdmin: boolean;
  /**
   * A key from the address for another account while this one's session is live: the visitor is
   * asked before switching (session/addressKey.ts). `user` is its profile, null if unread.
   */
  readonly offer: { readonly key: string; readonly user: UserProfile | null } | null;
  /** This session was opened by a link (a key in the address, nobody signed in before): said once. */
  readonly byLink: boolean;
  /**
   * The redeem of a third-party sign-in's code failed: the server's French reason (`detail`),
   * or null when it gave none (no answer, a page that is not ours). Null `signInFailure`: none.
   */
  readonly signInFailure: { readonly detail: string | null } | null;
}

export interface SessionDeps {
  storage: KeyValueStorage;
  fetchProfile: (key: string) => Promise<UserProfile>;
  pingAdmin: (key: string) => Promise<unknown>;
  /** Ends the key on the server (POST /api/logout); optional so plain stores can be tested without it. */
  revokeKey?: (key: string) => Promise<unknown>;
  /** The other tabs of this browser: told when the balance changes here, and heard when it changes there. */
  credits?: CreditsChannel;
}

export class SessionStore {
  private state: SessionState;
  private readonly listeners = new Set<() => void>();
  private readonly admin: AdminStatusCache;
  private generation = 0;

  constructor(private readonly deps: SessionDeps) {
    this.admin = new AdminStatusCache(deps.pingAdmin);
    const key = readStoredKey(deps.storage);
    this.state = { key, user: null, status: key ? 'loading' : 'anonymous', adminPing: null, isAdmin: false, offer: null, byLink: false, signInFailure: null };
    // Another tab spent or bought credits: re-read the profile here, without telling anyone again.
    deps.credits?.subscribe(() => {
      if (this.state.key && this.state.status === 'ready') void this.loadProfile(this.state.key, true).catch(() => undefined);
    });
  }

  getState = (): SessionState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Starts the session: `urlKey` is a key taken from the address (already removed from it). */
  start(urlKey: string | null): Promise<void> {
    const stored = this.state.key;
    const { action, byLink } = decideAddressKey(stored, urlKey);
    if (action === 'take' && urlKey) {
      storeKey(this.deps.storage, urlKey);
      this.admin.reset();
      this.set({ key: urlKey, user: null, status: 'consuming', adminPing: null, byLink });
      return this.loadProfile(urlKey).then(() => undefined, () => undefined);
    }
    if (action === 'ask' && urlKey && stored) return this.restoreAndOffer(stored, urlKey);
    if (stored) return this.loadProfile(stored, false, true).then(() => undefined, () => undefined);
    return Promise.resolve();
  }

  /**
   * The stored key and the address's, read side by side; nothing stored changes until both are
   * known. A refused address key is dropped; another key of the same account is taken silently
   * (a fresh sign-in's); a refused stored key was no live session, so the address key is taken,
   * as a sign-in by a link; otherwise the visitor is asked (`offer`).
   */
  private async restoreAndOffer(stored: string, candidate: string): Promise<void> {
    const generation = ++this.generation;
    const [mine, theirs] = await Promise.allSettled([this.deps.fetchProfile(stored), this.deps.fetchProfile(candidate)]);
    if (generation !== this.generation) return;
    const theirUser = theirs.status === 'fulfilled' ? theirs.value : null;
    const theirsRefused = theirs.status === 'rejected' && !isTransientFailure(theirs.reason);
    if (mine.status === 'rejected' && !isTransientFailure(mine.reason)) {
      this.admin.reset();
      clearStoredKey(this.deps.storage);
      if (theirUser) {
        storeKey(this.deps.storage, candidate);
        this.set({ key: candidate, user: theirUser, status: 'ready', adminPing: null, byLink: true });
      } else {
        this.set({ key: null, user: null, status: 'anonymous', adminPing: null });
      }
      return;
    }
    const myUser = mine.status === 'fulfilled' ? mine.value : null;
    if (myUser && theirUser && sameAccount(myUser, theirUser)) {
      storeKey(this.deps.storage, candidate);
      this.admin.reset();
      this.set({ key: candidate, user: theirUser, status: 'ready', adminPing: null });
      return;
    }
    this.set({ user: myUser, status: myUser ? 'ready' : 'unavailable', offer: theirsRefused ? null : { key: candidate, user: theirUser } });
  }

  /**
   * Starts the session from the return of a third-party sign-in: `redeem` exchanges its code
   * (already removed from the address) for the key, which is then taken as a password login's is,
   * replacing any stored session without a question: only the browser that started the sign-in
   * can redeem its code. On a refusal the stored session, if any, stays, and `signInFailure` says why.
   */
  async redeemSignIn(redeem: () => Promise<{ token?: unknown; apiKey?: unknown; api_key?: unknown } | null | undefined>): Promise<void> {
    const stored = this.state.key;
    const generation = ++this.generation;
    this.set({ status: 'consuming', user: null, signInFailure: null });
    let key: string | null = null;
    let detail: string | null = null;
    try {
      key = answerKey(await redeem());
    } catch (error) {
      if (error instanceof HttpError) detail = error.detail || null;
    }
    if (generation !== this.generation) return;
    if (key) {
      await this.login(key).catch(() => undefined);
      return;
    }
    this.set({ signInFailure: { detail } });
    if (stored) await this.loadProfile(stored, false, true).catch(() => undefined);
    else this.set({ key: null, user: null, status: 'anonymous', adminPing: null });
  }

  /** The visitor chose the address's account: signed in with it, as by the form. */
  acceptOffer(): Promise<void> {
    const offer = this.state.offer;
    if (!offer) return Promise.resolve();
    return this.login(offer.key).then(() => undefined, () => undefined);
  }

  /** The visitor stays on their account: the address's key is forgotten, the session untouched. */
  declineOffer(): void {
    if (this.state.offer) this.set({ offer: null });
  }

  /** The notice of a sign-in by a link was read. */
  dismissLinkNotice(): void {
    if (this.state.byLink) this.set({ byLink: false });
  }

  /** Asks again for the profile of a kept key ('unavailable'). */
  retry(): Promise<void> {
    const key = this.state.key;
    if (!key || this.state.status !== 'unavailable') return Promise.resolve();
    this.set({ status: 'loading' });
    return this.loadProfile(key, false, true).then(() => undefined, () => undefined);
  }

  /** Stores the key and checks it; on failure the key is cleared and the error raised. */
  async login(key: string): Promise<UserProfile> {
    storeKey(this.deps.storage, key);
    this.admin.reset();
    this.set({ key, user: null, status: 'loading', adminPing: null, offer: null, byLink: false, signInFailure: null });
    return this.loadProfile(key);
  }

  /**
   * Forgets the key here at once, and asks the server to end it (a copy elsewhere stops working too).
   * `revoke: false` when the server has ended it already (the account was just deleted): asking
   * again is refused, a 401 on the console after every deletion.
   */
  logout(options: { revoke?: boolean } = {}): void {
    const key = this.state.key;
    if (key && options.revoke !== false) void this.deps.revokeKey?.(key).catch(() => undefined);
    this.generation++;
    clearStoredKey(this.deps.storage);
    this.admin.reset();
    this.set({ key: null, user: null, status: 'anonymous', adminPing: null, offer: null, byLink: false });
  }

  /** Re-reads the profile (after a purchase or a paid action); other tabs hear of a new balance. */
  async refresh(): Promise<void> {
    if (!this.state.key) return;
    const before = creditBalance(this.state.user);
    await this.loadProfile(this.state.key, true).then(
      (user) => this.announceCredits(before, creditBalance(user)),
      () => undefined,
    );
  }

  /** Merges fields into the user (credits_remaining after a backtest, for instance). */
  patchUser(patch: Partial<UserProfile>): void {
    if (!this.state.user) return;
    const before = creditBalance(this.state.user);
    this.set({ user: { ...this.state.user, ...patch } });
    this.announceCredits(before, creditBalance(this.state.user));
  }

  private announceCredits(before: number | null, after: number | null): void {
    if (after !== before) this.deps.credits?.publish();
  }

  /**
   * Asks the admin ping once for the current key, unless the loaded profile already says the user
   * is not an admin (then the answer is no, without a call the server would refuse with a 403).
   */
  checkAdmin(): Promise<boolean> {
    const key = this.state.key;
    const cached = this.admin.peek(key);
    if (cached !== null) return Promise.resolve(cached);
    if (key && this.state.status === 'ready' && profileRole(this.state.user) === 'user') {
      this.set({ adminPing: false });
      return Promise.resolve(false);
    }
    return this.admin.check(key).then((ok) => {
      if (this.state.key === key) this.set({ adminPing: ok });
      return ok;
    });
  }

  /** The stored key changed, maybe in another tab: follow it. */
  syncFromStorage(): void {
    const key = readStoredKey(this.deps.storage);
    if (key === this.state.key) return;
    this.admin.reset();
    if (!key) {
      this.generation++;
      this.set({ key: null, user: null, status: 'anonymous', adminPing: null, offer: null, byLink: false });
      return;
    }
    this.set({ key, user: null, status: 'loading', adminPing: null, offer: null, byLink: false });
    void this.loadProfile(key, false, true).catch(() => undefined);
  }

  /**
   * `quiet`: a re-read, whose failure changes nothing. `keepOnTransient`: a stored key being
   * restored (page load, another tab), kept through a failure that says nothing about it; a
   * sign-in or a key from the address is still forgotten on any failure (docs/product.md §1.4).
   */
  private async loadProfile(key: string, quiet = false, keepOnTransient = false): Promise<UserProfile> {
    const generation = ++this.generation;
    try {
      const user = await this.deps.fetchProfile(key);
      if (generation === this.generation) this.set({ user, status: 'ready' });
      return user;
    } catch (error) {
      if (generation === this.generation && !quiet && keepOnTransient && isTransientFailure(error)) {
        this.set({ user: null, status: 'unavailable' });
        throw error;
      }
      // A key the server refuses is worthless: forget it (docs/product.md §1.8).
      if (generation === this.generation && !quiet) {
        clearStoredKey(this.deps.storage);
        this.admin.reset();
        this.set({ key: null, user: null, status: 'anonymous', adminPing: null, byLink: false });
      }
      throw error;
    }
  }

  private set(patch: Partial<Omit<SessionState, 'isAdmin'>>): void {
    const next = { ...this.state, ...patch };
    this.state = { ...next, isAdmin: next.key ? isAdminUser(next.user, next.adminPing) : false };
    for (const listener of this.listeners) listener();
  }
}
