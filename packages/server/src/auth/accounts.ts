import { SIGNUP_CREDITS } from '@bt/core/catalogue';
import { UniqueConstraintError, type Transaction } from 'sequelize';
import { HttpError, badRequest, conflict, unauthorized } from '../app/errors.js';
import { MSG } from '../app/messages.js';
import type { Clock } from '../clock/index.js';
import type { CreditLedger } from '../credits/ledger.js';
import type { Database } from '../db/database.js';
import { signupEvent, type EventLog } from '../events/log.js';
import type { User } from '../db/models.js';
import { resetMail, verificationMail, type Mailer } from '../mail/index.js';
import { userWithEmail, userWithUsername } from '../users/lookup.js';
import { RecreateLimitError, type Recreations } from '../users/recreations.js';
import { checkEmail, checkName, checkNewPassword, checkUsername, isEmail, isReservedUsername, normalizeEmail, normalizeUsername } from './rules.js';
import type { ScreenVerification } from '../app/config.js';
import { hashPassword, needsRehash, verifyPassword, type ScryptCost } from './secrets.js';
import type { SignInAttempts } from './attempts.js';
import type { Sessions } from './sessions.js';
import type { OneTimeTokens } from './tokens.js';

export interface AccountsConfig {
  /** Base URL of this API, for the verification link. */
  apiUrl: string;
  /** Base URL of the web app, for the reset link. */
  publicUrl: string;
  verifyTokenTtlMs: number;
  resetTokenTtlMs: number;
  passwordCost: ScryptCost;
  screenVerification: ScreenVerification;
}

export interface AccountsDeps {
  db: Database;
  clock: Clock;
  mailer: Mailer;
  sessions: Sessions;
  tokens: OneTimeTokens;
  ledger: CreditLedger;
  recreations: Recreations;
  events: EventLog;
  config: AccountsConfig;
  log: (message: string) => void;
}

/** How a verification link reached (or not) its owner. */
export interface VerificationDelivery {
  emailed: boolean;
  /** Only when no SMTP server is configured: the link itself (docs/architecture.md §3). */
  verifyUrl?: string;
}

export interface NewUser {
  email: string;
  username: string;
  firstName: string;
  lastName: string;
  passwordHash: string | null;
  emailVerified: boolean;
}

/** The ledger reference of the sign-up credits: one grant per account, whatever happens. */
export const signupReference = (userId: number) => `signup:${userId}`;

/**
 * What a verification link did: verified and granted the sign-up credits; verified, the credits
 * having been granted before (a second click, an address verified again); verified by a link
 * shown on screen, which grants none (`VERIFY_ON_SCREEN=no-credits`); or nothing (unknown,
 * replaced or expired link).
 */
export type VerificationOutcome = 'credited' | 'already-credited' | 'screen-no-credits' | 'invalid';

/** Registration, sign-in, e-mail verification and password reset. */
export class Accounts {
  constructor(private readonly deps: AccountsDeps) {}

  async register(input: { firstName: string; lastName: string; email: string; username: string; password: string }) {
    const email = normalizeEmail(input.email);
    const username = normalizeUsername(input.username);
    if (!input.firstName || !input.lastName || !email || !username || !input.password) throw badRequest(MSG.allFieldsRequired);
    checkEmail(email);
    checkUsername(username);
    checkName(input.firstName);
    checkName(input.lastName);
    checkNewPassword(input.password);
    const passwordHash = await hashPassword(input.password, this.deps.config.passwordCost);
    const { user, key, token } = await this.deps.db.transaction(async (t) => {
      const user = await this.createUser({ email, username, firstName: input.firstName, lastName: input.lastName, passwordHash, emailVerified: false }, t);
      const { key } = await this.deps.sessions.issue(user.id, t);
      const token = await this.issueVerificationToken(user.id, t);
      return { user, key, token };
    }).catch(translateCreateError);
    const verification = await this.deliverVerification(user, token).catch((err) => {
      this.deps.log(`verification mail to user ${user.id} failed: ${(err as Error).message}`);
      return { emailed: false } as VerificationDelivery;
    });
    return { user, key, verification };
  }

  /**
   * Creates an account inside the caller's transaction, after the re-creation check. Throws
   * HttpError 409 for a taken address or username (a reserved one included), RecreateLimitError
   * past the limit.
   */
  async createUser(fields: NewUser, t: Transaction): Promise<User> {
    const { User } = this.deps.db.models;
    if (await userWithEmail(this.deps.db, fields.email, t)) throw conflict(MSG.emailTaken);
    // A reserved name (the admin's, or one that looks like it) is answered as taken: it is, by the
    // operator; once the admin account is deleted, a user who took 'admin' stopped the next start.
    if (isReservedUsername(fields.username)) throw conflict(MSG.usernameTaken);
    if (await userWithUsername(this.deps.db, fields.username, t)) throw conflict(MSG.usernameTaken);
    await this.deps.recreations.beforeCreate(fields.email, t);
    const now = this.deps.clock.now();
    const user = await User.create(
      { ...fields, emailVerifiedAt: fields.emailVerified ? now : null, role: 'user', plan: 'free', credits: 0, createdAt: now, updatedAt: now },
      { transaction: t },
    );
    await this.deps.events.record(signupEvent(user), t);
    if (fields.emailVerified) await this.grantSignupCredits(user.id, t);
    return user;
  }

  /**
   * `attempts` counts the check against the account's failed sign-ins (auth/attempts.ts): a 429
   * before any hash is computed while the account must wait.
   */
  async login(identifier: string, password: string, attempts?: { gate: SignInAttempts; clientIp: string }): Promise<{ user: User; key: string }> {
    const id = identifier.trim();
    if (!id || !password) throw badRequest(MSG.identifierRequired);
    const name = id.includes('@') ? normalizeEmail(id) : normalizeUsername(id);
    const user = id.includes('@') ? await userWithEmail(this.deps.db, name) : await userWithUsername(this.deps.db, name);
    const live = user && !user.deletedAt ? user : null;
    const attempt = await attempts?.gate.begin(live ? `user:${live.id}` : `name:${name.slice(0, 200)}`, attempts.clientIp);
    const cost = this.deps.config.passwordCost;
    const ok = await verifyPassword(password.slice(0, 1024), user?.passwordHash, cost);
    if (!user || !ok || user.deletedAt) throw unauthorized(MSG.invalidCredentials);
    await attempt?.succeeded();
    if (needsRehash(user.passwordHash!, cost)) {
      // The clear password is only ever here: the moment to move an old hash to today's cost.
      const passwordHash = await hashPassword(password.slice(0, 1024), cost);
      await this.deps.db.models.User.update({ passwordHash }, { where: { id: user.id, passwordHash: user.passwordHash } });
    }
    const { key } = await this.deps.db.transaction(async (t) => {
      const issued = await this.deps.sessions.issue(user.id, t);
      await this.deps.events.record({ kind: 'login', userId: user.id, at: this.deps.clock.now(), method: 'password' }, t);
      return issued;
    });
    return { user, key };
  }

  /** A new verification link for a signed-in user (POST /api/auth/resend-verification). */
  async resendVerification(user: User): Promise<VerificationDelivery> {
    if (user.emailVerified) throw conflict(MSG.alreadyVerified);
    if (!user.email) throw badRequest(MSG.emailInvalid);
    if (!this.deps.mailer.configured && this.deps.config.screenVerification === 'off') throw new HttpError(503, MSG.verificationUnavailable);
    const token = await this.deps.db.transaction((t) => this.issueVerificationToken(user.id, t));
    try {
      return await this.deliverVerification(user, token);
    } catch (err) {
      this.deps.log(`verification mail to user ${user.id} failed: ${(err as Error).message}`);
      throw new HttpError(502, MSG.verificationMailFailed);
    }
  }

  /**
   * A verification token, marked with how it will reach the user: by e-mail when a transport is
   * configured, else on screen (docs/security.md, "Verification without e-mail").
   */
  private issueVerificationToken(userId: number, t: Transaction): Promise<string> {
    const delivery = this.deps.mailer.configured ? 'mail' : 'screen';
    return this.deps.tokens.issue(userId, 'verify_email', this.deps.config.verifyTokenTtlMs, t, delivery);
  }

  /**
   * The link itself: what it did (docs/api.md, GET /api/auth/verify-email). A link shown on screen
   * proves nothing about the address, so it grants the sign-up credits only when the server is set
   * to (`screenVerification: 'credits'`, a local single-user install); the profile page says which
   * happened, so that nobody is told of credits they did not get.
   */
  async verifyEmail(token: string): Promise<VerificationOutcome> {
    const outcome = await this.deps.db.transaction(async (t): Promise<VerificationOutcome | null> => {
      const row = await this.deps.tokens.consume(token, 'verify_email', t);
      if (!row) return null;
      const proves = row.delivery !== 'screen' || this.deps.config.screenVerification === 'credits';
      const granted = await this.markEmailVerified(row.userId, t, proves);
      if (granted) return 'credited';
      return proves || (await this.signupCreditsGranted(row.userId, t)) ? 'already-credited' : 'screen-no-credits';
    });
    if (outcome) return outcome;
    // A second click on a link that already worked: still verified, nothing granted again.
    const used = await this.deps.tokens.find(token, 'verify_email');
    if (!used?.usedAt) return 'invalid';
    const user = await this.deps.db.models.User.findByPk(used.userId);
    if (!user || !user.emailVerified || user.deletedAt || used.expiresAt <= this.deps.clock.now()) return 'invalid';
    return (await this.signupCreditsGranted(user.id)) ? 'already-credited' : 'screen-no-credits';
  }

  private signupCreditsGranted(userId: number, t?: Transaction): Promise<boolean> {
    return this.deps.ledger.granted(signupReference(userId), t);
  }

  /**
   * Marks the address verified and grants the sign-up credits (once per account) unless told not
   * to; true when this call granted them.
   */
  async markEmailVerified(userId: number, t: Transaction, grantCredits = true): Promise<boolean> {
    const { User } = this.deps.db.models;
    await User.update({ emailVerified: true, emailVerifiedAt: this.deps.clock.now() }, { where: { id: userId, emailVerified: false }, transaction: t });
    if (!grantCredits) return false;
    return (await this.grantSignupCredits(userId, t)).applied;
  }

  private grantSignupCredits(userId: number, t: Transaction) {
    return this.deps.ledger.grant(userId, SIGNUP_CREDITS, 'verification', { reference: signupReference(userId), transaction: t });
  }

  /**
   * Sends a reset link when the address has an account; answers nothing either way. `allowed`
   * counts the mails of one account (any client): past it nothing is sent and the link already
   * mailed keeps working, said to nobody (a 429 would tell that the account exists).
   */
  async requestPasswordReset(rawEmail: string, allowed?: (userId: number) => Promise<boolean>): Promise<void> {
    const email = normalizeEmail(rawEmail);
    if (!isEmail(email)) return;
    const user = await userWithEmail(this.deps.db, email);
    if (!user || user.deletedAt || !user.email) return;
    if (allowed && !(await allowed(user.id))) return;
    // The link goes to the account's own address, never to what was typed (docs/security.md).
    const to = user.email;
    const token = await this.deps.db.transaction((t) => this.deps.tokens.issue(user.id, 'reset_password', this.deps.config.resetTokenTtlMs, t));
    const url = `${this.deps.config.publicUrl}/reset-password/${token}`;
    if (!this.deps.mailer.configured) {
      this.deps.log(`SMTP_URL is not set: password reset link for user ${user.id}: ${url}`);
      return;
    }
    // Not awaited: the answer must take the same time whether or not the address exists.
    this.deps.mailer
      .send(resetMail(to, url, Math.round(this.deps.config.resetTokenTtlMs / 60_000)))
      .catch((err) => this.deps.log(`reset mail to user ${user.id} failed: ${(err as Error).message}`));
  }

  async resetPassword(token: string, newPassword: string): Promise<void> {
    checkNewPassword(newPassword);
    const passwordHash = await hashPassword(newPassword, this.deps.config.passwordCost);
    const ok = await this.deps.db.transaction(async (t) => {
      const row = await this.deps.tokens.consume(token, 'reset_password', t);
      if (!row) return false;
      const { User } = this.deps.db.models;
      const [changed] = await User.update({ passwordHash }, { where: { id: row.userId, deletedAt: null }, transaction: t });
      if (changed !== 1) return false;
      // Whoever held a session before the reset loses it.
      await this.deps.sessions.revokeAll(row.userId, t);
      return true;
    });
    if (!ok) throw badRequest(MSG.invalidOrExpiredLink);
  }

  private async deliverVerification(user: User, token: string): Promise<VerificationDelivery> {
    const verifyUrl = `${this.deps.config.apiUrl}/api/auth/verify-email/${token}`;
    if (!this.deps.mailer.configured) {
      return this.deps.config.screenVerification === 'off' ? { emailed: false } : { emailed: false, verifyUrl };
    }
    await this.deps.mailer.send(verificationMail(user.email!, user.firstName, verifyUrl, SIGNUP_CREDITS));
    return { emailed: true };
  }
}

/** Turns a race on the unique indexes into the same 409 as the explicit checks. */
export function translateCreateError(err: unknown): never {
  if (err instanceof UniqueConstraintError) {
    const fields = Object.keys(err.fields ?? {}).join(',') + ' ' + (err.errors ?? []).map((e) => e.path).join(',');
    if (/email/.test(fields)) throw conflict(MSG.emailTaken);
    if (/username/.test(fields)) throw conflict(MSG.usernameTaken);
  }
  if (err instanceof RecreateLimitError) throw conflict(MSG.recreateLimit);
  throw err;
}
