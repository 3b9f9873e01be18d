import type { Accounts } from '../auth/accounts.js';
import { isEmail, isReservedUsername, normalizeEmail } from '../auth/rules.js';
import { newSecret } from '../auth/secrets.js';
import type { Sessions } from '../auth/sessions.js';
import { isUniqueViolation, type Database } from '../db/database.js';
import type { EventLog } from '../events/log.js';
import type { User } from '../db/models.js';
import { userWithEmail } from '../users/lookup.js';
import type { IdentityClaims } from './provider.js';

/** Why a third-party sign-in could not end in a session; sent back as /login?error=... */
export class SignInRefused extends Error {
  constructor(readonly code: 'recreate_limit' | 'email_missing' | 'email_unverified' | 'identity_conflict' | 'admin_password') {
    super(`third-party sign-in refused: ${code}`);
    this.name = 'SignInRefused';
  }
}

/**
 * Finds or creates the account behind a provider identity:
 * 1. an identity already linked signs its account in;
 * 2. else an account with the same address is linked, when the provider vouches for the address
 *    (email_verified) and the account has no identity of this provider yet (another subject with
 *    the same address is another person), and its address counts as verified from then on;
 * 3. else a new account is created (subject to the re-creation limit), verified when the
 *    provider vouches for the address, which grants the sign-up credits at once.
 */
export class IdentityLinking {
  constructor(
    private readonly db: Database,
    private readonly accounts: Accounts,
    private readonly sessions: Sessions,
    private readonly events: EventLog,
  ) {}

  /**
   * The account the identity signs into. No session yet: the key is issued when the browser
   * redeems the sign-in's one-time code (oidc/codes.ts).
   */
  async signIn(provider: string, claims: IdentityClaims): Promise<{ user: User; created: boolean }> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.signInOnce(provider, claims);
      } catch (err) {
        // Two first sign-ins of one identity at once (two tabs; or two new identities choosing
        // the same username): on MySQL neither saw the other's rows, and the unique index refused
        // the second, a 500. Once more, it finds the winner's identity and signs into it.
        if (isUniqueViolation(err) && attempt < 3) continue;
        throw err;
      }
    }
  }

  private signInOnce(provider: string, claims: IdentityClaims): Promise<{ user: User; created: boolean }> {
    const { User, UserIdentity } = this.db.models;
    const email = claims.email ? normalizeEmail(claims.email) : null;
    return this.db.transaction(async (t) => {
      // The subject compared exactly too: OpenID subjects are case-sensitive (docs/security.md).
      const found = await UserIdentity.findOne({ where: { provider, subject: claims.subject }, transaction: t });
      const identity = found !== null && found.subject === claims.subject && found.provider === provider ? found : null;
      if (identity) {
        const user = await User.findByPk(identity.userId, { transaction: t });
        if (user?.role === 'admin' && !user.deletedAt) throw new SignInRefused('admin_password');
        if (user && !user.deletedAt) {
          await this.events.record({ kind: 'login', userId: user.id, method: provider }, t);
          return { user, created: false };
        }
      }
      if (!email || !isEmail(email)) throw new SignInRefused('email_missing');
      const existing = await userWithEmail(this.db, email, t);
      if (existing) {
        // The admin role is never handed out on a provider's word for an address (a Google account
        // made on the admin's address, verified by a mailbox that changed hands since): the admin
        // signs in with its password (docs/security.md, "Google sign-in").
        if (existing.role === 'admin') throw new SignInRefused('admin_password');
        if (!claims.emailVerified) throw new SignInRefused('email_unverified');
        // The account already has its own identity at this provider, under another subject: the
        // address now belongs to another account of the provider (a workplace gave a departed
        // colleague's address to someone new). The subject is the person, not the address.
        const linked = await UserIdentity.findOne({ where: { userId: existing.id, provider }, attributes: ['id'], transaction: t });
        if (linked) throw new SignInRefused('identity_conflict');
        await UserIdentity.create({ userId: existing.id, provider, subject: claims.subject, email }, { transaction: t });
        if (!existing.emailVerified) {
          // Nobody had proved this address: its password and sessions may be those of someone
          // who registered another person's address and waits for them to sign in (account
          // pre-hijacking). The provider proves the address now; what was not proved ends.
          await User.update({ passwordHash: null }, { where: { id: existing.id }, transaction: t });
          await this.sessions.revokeAll(existing.id, t);
          await this.accounts.markEmailVerified(existing.id, t);
        }
        await this.events.record({ kind: 'login', userId: existing.id, method: provider }, t);
        return { user: (await User.findByPk(existing.id, { transaction: t }))!, created: false };
      }
      const user = await this.accounts
        .createUser(
          {
            email,
            username: await this.freeUsername(email, t),
            firstName: (claims.givenName ?? claims.name ?? email.split('@')[0]).slice(0, 100),
            lastName: (claims.familyName ?? '').slice(0, 100),
            passwordHash: null,
            emailVerified: claims.emailVerified,
          },
          t,
        )
        .catch((err) => {
          if ((err as Error).name === 'RecreateLimitError') throw new SignInRefused('recreate_limit');
          throw err;
        });
      await UserIdentity.create({ userId: user.id, provider, subject: claims.subject, email }, { transaction: t });
      return { user, created: true };
    });
  }

  /** A username from the address's local part, made unique with a random suffix if needed. */
  private async freeUsername(email: string, t: Parameters<Parameters<Database['transaction']>[0]>[0]): Promise<string> {
    let base = email.split('@')[0].toLowerCase().replace(/[^a-z0-9._-]/g, '').slice(0, 24);
    if (base.length < 3) base = `${base}user`.slice(0, 24);
    // admin@… signing in with a provider does not get a reserved name (accounts.createUser refuses it).
    if (isReservedUsername(base)) base = `${base}-user`;
    for (let attempt = 0; attempt < 10; attempt++) {
      const candidate = attempt === 0 ? base : `${base}-${newSecret().replace(/[^a-z0-9]/g, '').slice(0, 5)}`;
      if (!(await this.db.models.User.findOne({ where: { username: candidate }, transaction: t }))) return candidate;
    }
    return `user-${Date.now().toString(36)}`;
  }
}
