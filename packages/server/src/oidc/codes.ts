import { hashSecret, newSecret } from '../auth/secrets.js';
import type { Sessions } from '../auth/sessions.js';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import type { ProviderSignIns } from './reauth.js';

/**
 * How long a sign-in's one-time code may wait for its redeem. The web app redeems it on the load
 * of the page the callback sends the browser to, within a second or two; a minute leaves room for
 * a slow page and keeps a code copied from a log or a history worthless soon after.
 */
export const SIGN_IN_CODE_TTL_MS = 60_000;

/** What the callback hands over to the code's redeem. */
export interface SignInGrant {
  provider: string;
  userId: number;
  /** The hash of the browser's `bt_oidc` binding: only that browser can redeem the code. */
  bindingHash: string;
  nextPath: string | null;
}

/**
 * The one-time codes of third-party sign-ins (docs/security.md "Google sign-in"): the callback
 * puts one in the address it sends the browser back to, instead of a session key, and the web
 * app exchanges it once, with the flow's cookie, for the key (POST /api/auth/{provider}/redeem).
 * Stored as SHA-256, like the other secrets; whoever deletes the row owns the redeem.
 */
export class SignInCodes {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly sessions: Sessions,
    private readonly signIns?: ProviderSignIns,
  ) {}

  /** A new code for the grant, valid SIGN_IN_CODE_TTL_MS. */
  async issue(grant: SignInGrant): Promise<string> {
    const code = newSecret();
    const expiresAt = new Date(this.clock.now().getTime() + SIGN_IN_CODE_TTL_MS);
    await this.db.models.OidcCode.create({ codeHash: hashSecret(code), ...grant, expiresAt });
    return code;
  }

  /**
   * The session the code stands for, or null: unknown, used, expired, another provider's, another
   * browser's (binding), or an account deleted meanwhile. The row goes whatever the answer, so a
   * code is tried once; of two redeems at once, one finds the row to delete.
   */
  async redeem(provider: string, code: string, binding: string): Promise<{ key: string; userId: number; nextPath: string | null } | null> {
    if (!code || code.length > 200 || !binding || binding.length > 200) return null;
    const { OidcCode, User } = this.db.models;
    const issued = await this.db.transaction(async (t) => {
      const row = await OidcCode.findOne({ where: { codeHash: hashSecret(code) }, transaction: t });
      if (!row) return null;
      const removed = await OidcCode.destroy({ where: { id: row.id }, transaction: t });
      if (removed !== 1) return null;
      if (row.provider !== provider || row.bindingHash !== hashSecret(binding) || row.expiresAt.getTime() <= this.clock.now().getTime()) return null;
      const user = await User.findByPk(row.userId, { attributes: ['id', 'deletedAt'], transaction: t });
      if (!user || user.deletedAt) return null;
      const { key, keyId } = await this.sessions.issue(row.userId, t);
      return { key, keyId, userId: row.userId, nextPath: row.nextPath };
    });
    if (!issued) return null;
    // After the commit: the session exists. It vouches for its account for a few minutes
    // (setting a first password, changing the address: oidc/reauth.ts).
    await this.signIns?.record(issued.userId, issued.keyId);
    return { key: issued.key, userId: issued.userId, nextPath: issued.nextPath };
  }
}
