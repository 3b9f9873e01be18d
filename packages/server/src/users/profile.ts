import type { Transaction } from 'sequelize';
import { HttpError, badRequest, conflict, unauthorized } from '../app/errors.js';
import { MSG } from '../app/messages.js';
import type { Accounts, VerificationDelivery } from '../auth/accounts.js';
import type { SignInAttempts } from '../auth/attempts.js';
import { checkEmail, checkNewPassword, normalizeEmail } from '../auth/rules.js';
import { lockAccountRow } from './account-lock.js';
import { hashPassword, verifyPassword, type ScryptCost } from '../auth/secrets.js';
import type { Sessions } from '../auth/sessions.js';
import type { OneTimeTokens } from '../auth/tokens.js';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import type { Subscriptions } from '../payments/subscriptions.js';
import type { User } from '../db/models.js';
import { deletionEvent, type DeletedBy, type EventLog } from '../events/log.js';
import { REAUTH_WINDOW_MINUTES, type ProviderSignIns } from '../oidc/reauth.js';
import { userWithEmail } from './lookup.js';
import type { AccountPurge } from './purge.js';
import { RecreateLimitError, type Recreations } from './recreations.js';

/** Counts a check of the current password against the account's failed sign-ins (auth/attempts.ts). */
export interface PasswordChecks {
  gate: SignInAttempts;
  clientIp: string;
}

export interface ProfileDeps {
  db: Database;
  clock: Clock;
  accounts: Accounts;
  sessions: Sessions;
  tokens: OneTimeTokens;
  recreations: Recreations;
  subscriptions: Pick<Subscriptions, 'endForDeletion'>;
  events: EventLog;
  passwordCost: ScryptCost;
  /** Recent third-party sign-ins: the proof an account without a password gives (oidc/reauth.ts). */
  providerSignIns?: ProviderSignIns;
  /** What the account left in the working area, rows and files (users/purge.ts). */
  purge?: AccountPurge;
}

/** The signed-in user's own account: profile, password, subscription, deletion. */
export class Profiles {
  constructor(private readonly deps: ProfileDeps) {}

  /**
   * Who may change the account's address or set its password: with a password, whoever gives it;
   * without one (an account created by a Google sign-in), a session that comes from a sign-in with
   * the provider in the last REAUTH_WINDOW_MINUTES. Else a stolen key alone set a password, or
   * moved the account to another address, and took it over (docs/security.md, "Accounts without
   * a password"). The answer says how to prove it: sign in with the provider again (`reauth`
   * names it, for the web app's button), or, with no provider to sign in with, the reset link
   * mailed to the account's address.
   */
  private async checkOwner(user: User, keyId: number, currentPassword: string, checks?: PasswordChecks, missing: string = MSG.currentPasswordRequired): Promise<void> {
    if (user.passwordHash) {
      if (!currentPassword) throw badRequest(missing);
      // A guess of the current password is a failed sign-in of the account.
      const attempt = await checks?.gate.begin(`user:${user.id}`, checks.clientIp);
      if (!(await verifyPassword(currentPassword, user.passwordHash, this.deps.passwordCost))) throw badRequest(MSG.currentPasswordWrong);
      await attempt?.succeeded();
      return;
    }
    const signIns = this.deps.providerSignIns;
    if (signIns && (await signIns.isRecent(user.id, keyId))) return;
    const identities = await this.deps.db.models.UserIdentity.findAll({ where: { userId: user.id }, attributes: ['provider'], order: [['id', 'ASC']] });
    const provider = identities.map((i) => signIns?.provider(i.provider)).find((p) => !!p);
    if (provider) throw new HttpError(400, MSG.reauthRequired(provider.label, REAUTH_WINDOW_MINUTES), {}, { reauth: provider.id });
    throw badRequest(MSG.reauthByMail);
  }

  /**
   * Full name and/or e-mail. A new e-mail must be confirmed again, and its change proved by the
   * current password given as `password` (or, without one, a recent sign-in: checkOwner).
   */
  async update(user: User, input: { email: string; fullName: string; password: string }, keyId: number, checks?: PasswordChecks): Promise<{ user: User; verification?: VerificationDelivery }> {
    const changes: Partial<Pick<User, 'firstName' | 'lastName' | 'email' | 'emailVerified' | 'emailVerifiedAt'>> = {};
    if (input.fullName) {
      const full = input.fullName.replace(/\s+/g, ' ').trim();
      if (full.length > 201) throw badRequest(MSG.fullNameInvalid);
      const space = full.indexOf(' ');
      changes.firstName = (space < 0 ? full : full.slice(0, space)).slice(0, 100);
      changes.lastName = (space < 0 ? '' : full.slice(space + 1)).slice(0, 100);
    }
    const email = input.email ? normalizeEmail(input.email) : '';
    const emailChanges = email !== '' && email !== user.email;
    if (emailChanges) {
      checkEmail(email);
      await this.checkOwner(user, keyId, input.password, checks);
      Object.assign(changes, { email, emailVerified: false, emailVerifiedAt: null });
    }
    if (Object.keys(changes).length === 0) throw badRequest(MSG.nothingToUpdate);

    const { User } = this.deps.db.models;
    await this.deps.db.transaction(async (t) => {
      // Before ending the account's links: a deletion from another tab deadlocked with the
      // opposite order (7 of 12 changes run again).
      await lockAccountRow(this.deps.db, user.id, t);
      if (emailChanges) {
        if (await userWithEmail(this.deps.db, email, t)) throw conflict(MSG.emailTaken);
        // Taking an address whose account was deleted is a re-creation of it, as a registration
        // would be: counted, and refused past the limit. Otherwise one mailbox farmed the sign-up
        // credits without end (register with any address, move to it, verify, delete, again).
        await this.deps.recreations.beforeCreate(email, t);
        // Links sent to the old address (a reset, a verification) stop working with it.
        await this.deps.tokens.revokeAll(user.id, t);
      }
      // Guarded on the account being live: a change that waited on a deletion's lock (another tab,
      // an admin) must not land on the archived row, which then held the new address for good.
      const [changed] = await User.update(changes, { where: { id: user.id, deletedAt: null }, transaction: t });
      if (changed !== 1) throw unauthorized(MSG.invalidApiKey);
    }).catch((err) => {
      if ((err as Error).name === 'SequelizeUniqueConstraintError') throw conflict(MSG.emailTaken);
      if (err instanceof RecreateLimitError) throw conflict(MSG.recreateLimit);
      throw err;
    });
    const updated = (await User.findByPk(user.id))!;
    if (!emailChanges) return { user: updated };
    // A new address is unverified: send it a link (the sign-up credits were granted once already).
    const verification = await this.deps.accounts.resendVerification(updated).catch(() => ({ emailed: false }) as VerificationDelivery);
    return { user: updated, verification };
  }

  /** Sets a new password: the current one is required, or for an account without one a recent sign-in (checkOwner). */
  async setPassword(user: User, keyId: number, input: { currentPassword: string; newPassword: string }, checks?: PasswordChecks): Promise<void> {
    if (!input.newPassword) throw badRequest(MSG.newPasswordRequired);
    checkNewPassword(input.newPassword);
    await this.checkOwner(user, keyId, input.currentPassword, checks);
    const passwordHash = await hashPassword(input.newPassword, this.deps.passwordCost);
    await this.deps.db.transaction(async (t) => {
      const [changed] = await this.deps.db.models.User.update({ passwordHash }, { where: { id: user.id, deletedAt: null }, transaction: t });
      if (changed !== 1) throw unauthorized(MSG.invalidApiKey);
      // Other sessions end; the one that changed the password stays. A reset link asked before
      // would set another password over this one: it ends too.
      await this.deps.sessions.revokeAll(user.id, t, keyId);
      await this.deps.tokens.revokeAll(user.id, t, ['reset_password']);
    });
  }

  /**
   * The owner deletes their own account (POST /api/user/delete_account): proved first as for a new
   * password (checkOwner: the current password, counted as a sign-in attempt of the account, or
   * for an account without one a recent Google sign-in of this session). Else a stolen key alone
   * deleted the account for good, with its credits and paid results (docs/security.md, "Deleting
   * the account").
   */
  async deleteOwnAccount(user: User, keyId: number, currentPassword: string, checks?: PasswordChecks): Promise<void> {
    await this.checkOwner(user, keyId, currentPassword, checks, MSG.currentPasswordForDeletion);
    await this.deleteAccount(user, 'self');
  }

  /**
   * Deletes the account (the owner's proof, if any, was asked before: deleteOwnAccount; the
   * admin's deletion asks none): the row is archived (ledger kept, legal notice: 12 months), the address
   * and username are freed, sessions, tokens and linked identities are removed, so are its
   * strategies, archive entries, CSVs and results with their files (users/purge.ts), and the
   * deletion counts toward the address's re-creation limit. The sweep of inactive accounts
   * archives through here too (users/inactivity.ts): `still` locks the row and checks again, in
   * the archiving's transaction, that the account is still due; such an archiving counts no
   * deletion toward the re-creation limit (the limit is against farming sign-up credits, docs/server.md
   * "Inactive accounts"). Answers whether this call archived the account.
   */
  async deleteAccount(user: User, by: DeletedBy = 'self', still?: (t: Transaction) => Promise<boolean>): Promise<boolean> {
    const { User, ApiKey, UserToken, UserIdentity } = this.deps.db.models;
    // The subscription as it is now (not as the request's sign-in read it): a renewing Stripe
    // subscription ends first, so a deleted account is never charged again. An inactive account
    // has none in force (`still` checks it): nothing to end, and a subscription taken meanwhile
    // is never cancelled by the sweep.
    const live = await User.findByPk(user.id);
    if (!live || live.deletedAt) return false;
    if (by !== 'inactivity') await this.deps.subscriptions.endForDeletion(live);
    const now = this.deps.clock.now();
    const owed = await this.deps.db.transaction(async (t) => {
      if (still && !(await still(t))) return null;
      await lockAccountRow(this.deps.db, user.id, t);
      // Guarded on the account being live, and first: a double click (or the user and an admin at
      // once) deletes once. The second request waits on this row's lock, finds it deleted and does
      // nothing, instead of counting a second deletion toward the re-creation limit (SQLite) or
      // colliding on the counter's row (MySQL: a 500).
      const [changed] = await User.update(
        { deletedEmail: user.email, email: null, username: null, passwordHash: null, deletedAt: now, subscriptionAutoRenew: false },
        { where: { id: user.id, deletedAt: null }, transaction: t },
      );
      if (changed !== 1) return null;
      if (user.email && by !== 'inactivity') await this.deps.recreations.recordDeletion(user.email, t);
      await this.deps.events.record(deletionEvent(user.id, now, by), t);
      await ApiKey.destroy({ where: { userId: user.id }, transaction: t });
      await UserToken.destroy({ where: { userId: user.id }, transaction: t });
      await UserIdentity.destroy({ where: { userId: user.id }, transaction: t });
      return (await this.deps.purge?.owe(user.id, t)) ?? { removals: [], runIds: [] };
    });
    if (!owed) return false;
    if (owed.removals.length > 0 || owed.runIds.length > 0) await this.deps.purge!.settle(user.id, owed);
    return true;
  }
}
