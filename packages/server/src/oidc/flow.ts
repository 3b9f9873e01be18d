import { Op } from 'sequelize';
import { hashSecret, newSecret } from '../auth/secrets.js';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import type { SignInCodes } from './codes.js';
import { SignInRefused, type IdentityLinking } from './linking.js';
import type { IdentityProvider } from './provider.js';

const STATE_TTL_MS = 10 * 60_000;
/** Expired states a start deletes at most (retention/technical.ts sweeps the rest every minute). */
const EXPIRED_PER_START = 500;

export interface OidcFlowConfig {
  apiUrl: string;
  publicUrl: string;
}

/** `next` must be a path of the web app (docs/product.md §1.5): starts with '/', not '//', no scheme. */
export function safeNextPath(value: string | undefined | null): string | null {
  if (!value || typeof value !== 'string' || value.length > 500) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (/^\/*https?:/i.test(value)) return null;
  // Browsers drop tabs and line breaks from a URL: '/\t/evil.example' would be read as '//evil.example'.
  if (/[\u0000-\u001f\u007f]/.test(value)) return null;
  return value;
}

/** Where `finish` sends the browser, and the binding its `bt_oidc` cookie now holds (null: none). */
export interface FlowReturn {
  location: string;
  binding: string | null;
}

/**
 * The authorization-code flow: `start` remembers state, nonce and PKCE verifier in the database
 * (any instance can finish the flow) bound to a cookie of the browser that started it (so nobody
 * can make a victim finish an attacker's sign-in); `finish` checks them once, finds the account
 * and sends the browser back with a one-time code, bound to a fresh cookie value; `redeem`
 * exchanges the code, with that cookie, for the session key (docs/security.md "Google sign-in").
 */
export class OidcFlow {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly linking: IdentityLinking,
    private readonly codes: SignInCodes,
    private readonly config: OidcFlowConfig,
    private readonly log: (message: string) => void,
  ) {}

  redirectUri(provider: IdentityProvider): string {
    return `${this.config.apiUrl}/api/auth/${provider.id}/callback`;
  }

  async start(provider: IdentityProvider, next: string | null): Promise<{ url: URL; binding: string }> {
    const state = newSecret();
    const nonce = newSecret();
    const codeVerifier = newSecret();
    const binding = newSecret();
    const url = await provider.authorizationUrl({ redirectUri: this.redirectUri(provider), state, nonce, codeVerifier });
    const now = this.clock.now();
    const { OidcState } = this.db.models;
    await this.db.transaction(async (t) => {
      // The expired ones found by a plain read, which locks nothing, then deleted by id, only when
      // there are some. `expires_at` has no index: on MariaDB the DELETE by expiry read the whole
      // table with locks, up to the gap past the last row, even with no row to delete; two starts
      // at once on an empty table (as the minute sweep leaves it) each held that gap, then each
      // waited for the other's INSERT: 47 to 58 of 80 starts run again, 10 at once (docs/server.md,
      // "Sign-ups at once on MariaDB"; test/google-sign-ins-at-once.test.ts).
      // At most EXPIRED_PER_START: a flood of starts leaves the rest to the minute sweep.
      const expired = await OidcState.findAll({ where: { expiresAt: { [Op.lt]: now } }, attributes: ['id'], limit: EXPIRED_PER_START, transaction: t });
      if (expired.length > 0) await OidcState.destroy({ where: { id: expired.map((row) => row.id), expiresAt: { [Op.lt]: now } }, transaction: t });
      await OidcState.create(
        { stateHash: hashSecret(state), bindingHash: hashSecret(binding), provider: provider.id, nonce, codeVerifier, nextPath: safeNextPath(next), expiresAt: new Date(now.getTime() + STATE_TTL_MS) },
        { transaction: t },
      );
    });
    return { url, binding };
  }

  /**
   * Where to send the browser: /login with a one-time code (never the key: an address ends up in
   * the history, logs and Referer headers), or with an error code; and the new binding of its
   * cookie when a code was issued (the state's binding is spent with the state).
   */
  async finish(provider: IdentityProvider, query: URLSearchParams, binding: string | undefined): Promise<FlowReturn> {
    const back = (params: Record<string, string>, newBinding: string | null = null): FlowReturn => {
      const url = new URL('/login', this.config.publicUrl);
      url.searchParams.set('provider', provider.id);
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
      return { location: url.toString(), binding: newBinding };
    };
    const providerError = query.get('error');
    if (providerError) return back({ error: /^[a-z_]{1,64}$/.test(providerError) ? providerError : 'access_denied' });
    const state = query.get('state');
    if (!state || !binding) return back({ error: 'invalid_state' });

    const { OidcState } = this.db.models;
    const saved = await this.db.transaction(async (t) => {
      const row = await OidcState.findOne({ where: { stateHash: hashSecret(state), provider: provider.id }, transaction: t });
      if (!row) return null;
      // Single use: whoever deletes the row owns the flow.
      const removed = await OidcState.destroy({ where: { id: row.id }, transaction: t });
      return removed === 1 ? row : null;
    });
    if (!saved || saved.expiresAt.getTime() <= this.clock.now().getTime() || saved.bindingHash !== hashSecret(binding)) {
      return back({ error: 'invalid_state' });
    }

    const callbackUrl = new URL(this.redirectUri(provider));
    callbackUrl.search = query.toString();
    let claims;
    try {
      claims = await provider.exchange({ callbackUrl, state, nonce: saved.nonce, codeVerifier: saved.codeVerifier });
    } catch (err) {
      this.log(`${provider.id} sign-in failed at the token exchange: ${(err as Error).message}`);
      return back({ error: 'oidc_failed' });
    }
    let userId: number;
    try {
      userId = (await this.linking.signIn(provider.id, claims)).user.id;
    } catch (err) {
      if (err instanceof SignInRefused) return back({ error: err.code });
      throw err;
    }
    const redeemBinding = newSecret();
    const code = await this.codes.issue({ provider: provider.id, userId, bindingHash: hashSecret(redeemBinding), nextPath: saved.nextPath });
    const params: Record<string, string> = { code };
    if (saved.nextPath) params.next = saved.nextPath;
    return back(params, redeemBinding);
  }

  /** The session key for a code of this browser (its `bt_oidc` cookie), or null: refused. */
  redeem(provider: IdentityProvider, code: string, binding: string | undefined): Promise<{ key: string; nextPath: string | null } | null> {
    return this.codes.redeem(provider.id, code, binding ?? '');
  }
}
