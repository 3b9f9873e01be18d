/**
 * The profile page's plain rules (docs/product.md §2.2, §2.3, §2.5, §2.8): plan labels, the account summary, the
 * personal-info and password checks, the `verified` parameter, failure messages and the purchase
 * history (5 entries, then all).
 */
import { HttpError } from '../../api/errors.js';
import { fieldString as str } from '../../api/fields.js';
import { SUBSCRIBER_PACK_BONUS_RATE } from '../../lib/catalogue.js';

export const PROFILE_MESSAGES = {
  loadError: 'Erreur de chargement du profil',
  serverError: 'Erreur serveur',
  notAuthenticated: 'Non authentifié',
  invalidLink: 'Lien invalide ou expiré.',
  alreadyVerified: 'Adresse déjà vérifiée.',
  verificationFailed: "Impossible de générer l'e-mail de vérification.",
  verificationSent: 'Nouveau lien de vérification envoyé.',
  verified: 'Adresse e-mail vérifiée : tes 2 crédits offerts sont ajoutés.',
  // Ours: the link verified the address and granted nothing (docs/api.md, verify-email).
  verifiedAlreadyCredited: 'Adresse e-mail vérifiée. Tes 2 crédits offerts avaient déjà été ajoutés.',
  verifiedOnScreen: 'Adresse e-mail vérifiée. Les crédits offerts viennent seulement avec un lien reçu par e-mail, pas avec un lien affiché à l’écran.',
  verifiedNoCredits: 'Adresse e-mail vérifiée.',
  // Ours: the card's line before verification; the credits are promised only when still to come.
  verifyForCredits: 'Vérifie ton adresse pour débloquer tes 2 crédits offerts.',
  verifyNewAddress: 'Vérifie ta nouvelle adresse e-mail (les crédits offerts ont déjà été ajoutés à ton compte).',
  // Ours (the spec gives none for these checks).
  emailInvalid: 'Adresse e-mail invalide.',
  fullNameTooLong: 'Nom complet invalide (100 caractères maximum).',
  nothingChanged: 'Aucune modification demandée.',
  currentPasswordForEmail: 'Mot de passe actuel obligatoire pour changer d’adresse e-mail.',
  // The server's own sentence for a deletion without the password (docs/api.md, delete_account).
  currentPasswordForDeletion: 'Mot de passe actuel obligatoire pour supprimer ton compte.',
  newPasswordRequired: 'Nouveau mot de passe obligatoire.',
  passwordTooShort: '8 caractères minimum.',
  passwordMismatch: 'Les mots de passe ne correspondent pas.',
  profileSaved: 'Profil mis à jour.',
  passwordSaved: 'Mot de passe modifié.',
} as const;

export const PASSWORD_MIN = 8;

/** Purchase history shows 5 entries by default (docs/product.md §2.2). */
export const HISTORY_DEFAULT = 5;

export const PLAN_LABELS: Record<string, string> = { free: 'Gratuit', SUB_9: 'Starter', SUB_25: 'Pro' };

export function planLabel(plan: unknown): string {
  const key = typeof plan === 'string' && plan ? plan : 'free';
  return PLAN_LABELS[key] ?? key;
}

/**
 * The summary's badge for a subscriber's advantage (`has_discount`): bonus credits on packs, as
 * /pricing says it, never a price cut, which bt does not make (docs/catalogue.md).
 */
export function subscriberAdvantage(user: { has_discount?: unknown } | null | undefined): string | null {
  return user?.has_discount === true ? `+${Math.round(SUBSCRIBER_PACK_BONUS_RATE * 100)}\u00a0% de crédits sur les packs` : null;
}

export function isSubscriber(plan: unknown): boolean {
  return plan === 'SUB_9' || plan === 'SUB_25';
}

type User = Record<string, unknown>;


export function displayName(user: User | null | undefined): string {
  if (!user) return '';
  return str(user.full_name) || str(user.name) || [str(user.first_name), str(user.last_name)].filter(Boolean).join(' ') || str(user.username);
}

const DATE = new Intl.DateTimeFormat('fr-FR', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' });
const DATE_TIME = new Intl.DateTimeFormat('fr-FR', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });

export function formatDate(value: unknown, withTime = false): string {
  if (typeof value !== 'string' && typeof value !== 'number') return '—';
  const date = new Date(typeof value === 'number' && value < 1e12 ? value * 1000 : value);
  if (Number.isNaN(date.getTime())) return String(value);
  return (withTime ? DATE_TIME : DATE).format(date);
}

export function renewDate(user: User | null | undefined): string | null {
  const subscription = user?.subscription;
  const value = subscription && typeof subscription === 'object' ? (subscription as Record<string, unknown>).renew_date : null;
  return typeof value === 'string' && value ? formatDate(value) : null;
}

/**
 * What the `verified` query parameter says: 1 verified, 0 a bad link, anything else nothing. With
 * `verified=1`, the credits were granted only when `credits` is absent; the server says why not
 * with `already` or `screen`, and any other value claims no credits either.
 */
export function verifiedBanner(param: string | null, credits: string | null = null): { kind: 'ok' | 'error'; text: string } | null {
  if (param === '1') {
    if (credits === null) return { kind: 'ok', text: PROFILE_MESSAGES.verified };
    if (credits === 'already') return { kind: 'ok', text: PROFILE_MESSAGES.verifiedAlreadyCredited };
    if (credits === 'screen') return { kind: 'ok', text: PROFILE_MESSAGES.verifiedOnScreen };
    return { kind: 'ok', text: PROFILE_MESSAGES.verifiedNoCredits };
  }
  if (param === '0') return { kind: 'error', text: PROFILE_MESSAGES.invalidLink };
  return null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface PersonalInfo {
  email: string;
  fullName: string;
  password: string;
}

/** The fields to send, or the first problem. A new e-mail needs the current password. */
export function checkPersonalInfo(input: PersonalInfo, current: { email: string; fullName: string; hasPassword: boolean }): { error: string } | { fields: Partial<Record<'email' | 'full_name' | 'password', string>> } {
  const email = input.email.trim();
  const fullName = input.fullName.trim();
  const fields: Partial<Record<'email' | 'full_name' | 'password', string>> = {};
  if (email.toLowerCase() !== current.email.toLowerCase()) {
    if (!EMAIL.test(email)) return { error: PROFILE_MESSAGES.emailInvalid };
    if (current.hasPassword && !input.password) return { error: PROFILE_MESSAGES.currentPasswordForEmail };
    fields.email = email;
    if (input.password) fields.password = input.password;
  }
  if (fullName !== current.fullName) {
    if (fullName.length > 100) return { error: PROFILE_MESSAGES.fullNameTooLong };
    fields.full_name = fullName;
  }
  if (!fields.email && fields.full_name === undefined) return { error: PROFILE_MESSAGES.nothingChanged };
  return { fields };
}

export interface PasswordChange {
  current: string;
  next: string;
  confirm: string;
}

/** The new password is required, 8 characters at least, typed twice; the current one is optional (docs/product.md §2.5). */
export function checkPasswordChange(input: PasswordChange): string | null {
  if (!input.next) return PROFILE_MESSAGES.newPasswordRequired;
  if (input.next.length < PASSWORD_MIN) return PROFILE_MESSAGES.passwordTooShort;
  if (input.next !== input.confirm) return PROFILE_MESSAGES.passwordMismatch;
  return null;
}

/**
 * The proof sent with the account's deletion (docs/api.md, POST /api/user/delete_account): the
 * current password, as typed (never trimmed), for an account that has one; nothing for an account
 * created by Google sign-in, whose proof is a recent Google sign-in of this session (the server
 * says so with `reauth: "google"`, see reauthProvider).
 */
export function checkAccountDeletion(password: string, hasPassword: boolean): { error: string } | { body: { current_password?: string } } {
  if (!hasPassword) return { body: {} };
  if (!password) return { error: PROFILE_MESSAGES.currentPasswordForDeletion };
  return { body: { current_password: password } };
}

/**
 * A failed profile call as the page says it (docs/product.md §2.8): the server's detail when it gives one,
 * 'Non authentifié' for 401, 'Erreur serveur' for a 5xx or an answer without detail.
 */
export function profileErrorMessage(error: unknown): string {
  if (error instanceof HttpError) {
    if (error.status === 401) return PROFILE_MESSAGES.notAuthenticated;
    if (error.status >= 500 && !error.detail) return PROFILE_MESSAGES.serverError;
    return error.detail || PROFILE_MESSAGES.serverError;
  }
  return PROFILE_MESSAGES.serverError;
}

/** The button of a refusal that asks to sign in with Google again (docs/api.md, set-password). */
export const REAUTH_BUTTON = 'Confirme avec Google';

/**
 * Where an account without a password proves it is its owner's before a password is set, the
 * address changed or the account deleted: the server answers 400 with `reauth: "google"` when the session's Google
 * sign-in is older than 10 minutes (docs/security.md, "Accounts without a password"). The page
 * then offers to sign in with Google again, back to the profile with a new session.
 */
export function reauthProvider(error: unknown): 'google' | null {
  if (!(error instanceof HttpError) || error.status !== 400) return null;
  const body = error.body;
  return body && typeof body === 'object' && (body as Record<string, unknown>).reauth === 'google' ? 'google' : null;
}

/** The actions that may ask an account without a password for a new Google sign-in. */
export const REAUTH_ACTIONS = ['delete', 'password', 'email'] as const;
export type ReauthAction = (typeof REAUTH_ACTIONS)[number];

/**
 * Where the 'Confirme avec Google' button comes back to: the profile, saying which action asked
 * (`/profile?reauth=delete|password|email`). The server keeps this `next` through the sign-in and
 * the page's /login?provider=google return reads it with safeNext.
 */
export function reauthReturnPath(action: ReauthAction): string {
  return `/profile?reauth=${action}`;
}

/**
 * The `reauth` parameter read back on the profile: one of REAUTH_ACTIONS exactly, else nothing
 * (an unknown, empty, differently spelt or repeated value is ignored, never shown).
 */
export function reauthAction(param: string | null | undefined): ReauthAction | null {
  return (REAUTH_ACTIONS as readonly string[]).includes(param ?? '') ? (param as ReauthAction) : null;
}

/** The note shown where the action resumes, after a Google sign-in asked by that action. */
export const REAUTH_RESUMED: Record<ReauthAction, string> = {
  delete: 'Identité confirmée avec Google : tu peux maintenant supprimer ton compte.',
  password: 'Identité confirmée avec Google : tu peux maintenant choisir ton mot de passe.',
  email: 'Identité confirmée avec Google : tu peux maintenant changer ton adresse e-mail.',
};

/**
 * What the profile resumes on its return from that sign-in: the action named by `reauth`, only
 * for an account without a password (the only ones the server asks; for the others the note would
 * be false). Nothing is sent: the user confirms again.
 */
export function reauthResume(param: string | null | undefined, user: object | null | undefined): ReauthAction | null {
  const action = reauthAction(param);
  return action && user && (user as { has_password?: unknown }).has_password === false ? action : null;
}

/** Resend verification (docs/product.md §2.8): 409 already verified, 502 the mail could not be generated. */
export function resendErrorMessage(error: unknown): string {
  if (error instanceof HttpError) {
    if (error.status === 409) return PROFILE_MESSAGES.alreadyVerified;
    if (error.status === 502) return PROFILE_MESSAGES.verificationFailed;
    return error.detail || `HTTP ${error.status}`;
  }
  return PROFILE_MESSAGES.serverError;
}

export interface HistoryRow {
  key: string;
  label: string;
  date: string;
  amount: string;
  credits: string;
  txid: string;
  /** A purchase's invoice: its number and the API path of its PDF. */
  invoice: { label: string; path: string } | null;
}

const METHOD_SUFFIX: Record<string, string> = { stripe: 'carte', paypal: 'PayPal', crypto: 'crypto' };

const EURO = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });

/** An amount in euros given as a number or a numeric text ('7,00 €'); null when it does not read as one. */
export function formatEuros(value: unknown): string | null {
  const amount = typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : NaN;
  return Number.isFinite(amount) ? EURO.format(amount) : null;
}

const TYPE_LABELS: Record<string, string> = {
  verification: 'Crédits offerts (adresse e-mail vérifiée)',
  purchase: 'Achat de crédits',
  subscription: 'Abonnement',
  admin: 'Crédits ajoutés par l’équipe',
  bonus: 'Bonus',
  backtest: 'Backtest',
  csvDownload: 'Téléchargement CSV',
  extraction: 'Extraction CSV',
  refund: 'Remboursement',
};

/** purchase_history entries {offer_id/label, date, amount, txid} (docs/product.md §2.3), newest first as given. */
export function historyRows(user: User | null | undefined): HistoryRow[] {
  const list = Array.isArray(user?.purchase_history) ? (user!.purchase_history as unknown[]) : [];
  return list
    .filter((e): e is Record<string, unknown> => !!e && typeof e === 'object')
    .map((entry, i) => {
      const type = str(entry.type);
      const credits = typeof entry.credits === 'number' ? entry.credits : null;
      const invoice = entry.invoice && typeof entry.invoice === 'object' ? (entry.invoice as Record<string, unknown>) : null;
      const method = METHOD_SUFFIX[str(entry.method)];
      const label = str(entry.label) || str(entry.offer_id) || TYPE_LABELS[type] || type || '—';
      return {
        key: `${str(entry.txid) || 'entry'}-${String(entry.id ?? i)}`,
        label: method ? `${label} (${method})` : label,
        date: formatDate(entry.date, true),
        amount: formatEuros(entry.amount) ?? '—',
        credits: credits === null ? '—' : credits > 0 ? `+${credits}` : String(credits),
        txid: str(entry.txid),
        invoice: invoice && str(invoice.url) ? { label: str(invoice.label) || 'Facture', path: str(invoice.url) } : null,
      };
    });
}

export function visibleHistory<T>(rows: readonly T[], showAll: boolean): T[] {
  return showAll ? [...rows] : rows.slice(0, HISTORY_DEFAULT);
}

/**
 * The verification card's line for an unverified address: the sign-up credits are promised only
 * when the server says they are still to come (`signup_credits_pending`, docs/api.md); an account
 * that changed its verified address had them already. A server that does not say keeps the promise.
 */
export function verificationHint(user: { signup_credits_pending?: unknown }): string {
  return user.signup_credits_pending === false ? PROFILE_MESSAGES.verifyNewAddress : PROFILE_MESSAGES.verifyForCredits;
}
