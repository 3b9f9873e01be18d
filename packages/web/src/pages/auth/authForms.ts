/**
 * Validation of the sign-in, registration and password forms (docs/product.md §1.5, §1.8). The spec fixes the
 * reset-password messages; the others are ours (docs/web.md).
 */
import type { RegisterPayload } from '../../api/calls.js';

export const PASSWORD_MIN = 8;

export const AUTH_MESSAGES = {
  required: 'Tous les champs sont obligatoires.',
  identifierRequired: 'Renseigne ton e-mail ou ton nom d’utilisateur.',
  passwordRequired: 'Renseigne ton mot de passe.',
  invalidEmail: 'Adresse e-mail invalide.',
  passwordTooShort: '8 caractères minimum.',
  passwordMismatch: 'Les mots de passe ne correspondent pas.',
  registerFailed: "Erreur lors de l'inscription",
  unexpectedRegister: 'Erreur inattendue.',
  loginFailed: 'Identifiants invalides',
  unexpectedLogin: 'Erreur inattendue',
  recreateLimit: 'Tu as déjà recréé un compte 3 fois avec cette adresse. Connecte-toi avec ton compte existant ou utilise un autre e-mail.',
  resendOk: 'Nouveau lien de vérification envoyé.',
  forgotDone: 'Si un compte existe pour cette adresse, un lien de reset a été envoyé.',
  networkError: 'Erreur réseau.',
  resetDone: 'Mot de passe mis à jour. Redirection…',
  resetInvalid: 'Lien invalide ou expiré.',
  providerFailed: 'Connexion avec Google impossible. Réessaie.',
  // The return's code could not be redeemed and the server gave no reason (no answer, another page).
  providerRedeemFailed: 'Connexion avec Google interrompue : le serveur n’a pas répondu. Réessaie.',
  googleUnavailable: 'La connexion avec Google n’est pas disponible sur ce serveur.',
} as const;

/**
 * Why a return from Google did not sign in, by the `error` code the server sends back
 * (docs/api.md, GET /api/auth/google/callback); ours, since the spec names recreate_limit only.
 * 'Réessaie' alone sent a trader whose address Google had not verified round in circles.
 */
export const PROVIDER_ERRORS: Readonly<Record<string, string>> = {
  email_unverified: 'Un compte existe déjà avec cette adresse, mais Google ne l’a pas vérifiée : connecte-toi avec ton mot de passe.',
  email_missing: 'Google n’a pas transmis ton adresse e-mail : autorise-la lors de la connexion, ou inscris-toi avec le formulaire.',
  identity_conflict: 'Le compte qui a cette adresse est lié à un autre compte Google : connecte-toi avec celui-ci ou avec ton mot de passe.',
  admin_password: 'Le compte administrateur se connecte avec son mot de passe, pas avec Google.',
  access_denied: 'Connexion avec Google annulée.',
  invalid_state: 'La connexion avec Google a expiré ou a été commencée dans un autre navigateur. Réessaie.',
};

export function providerFailureMessage(code: string | null | undefined): string {
  return (code && Object.hasOwn(PROVIDER_ERRORS, code) ? PROVIDER_ERRORS[code] : null) ?? AUTH_MESSAGES.providerFailed;
}

/**
 * Whether this server offers Google sign-in, from `GET /api/health`'s `sign_in` list: 'unknown'
 * when the answer says nothing (no answer, no list), so the button stays as it was. Without
 * Google configured, the button led to the server's raw 503 JSON page.
 */
export function googleSignIn(health: unknown): 'available' | 'unavailable' | 'unknown' {
  const list = health && typeof health === 'object' ? (health as { sign_in?: unknown }).sign_in : undefined;
  if (!Array.isArray(list)) return 'unknown';
  return list.includes('google') ? 'available' : 'unavailable';
}

/** An e-mail: something@domain.tld, no spaces anywhere. */
export function isEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}

export interface LoginInput {
  identifier: string;
  password: string;
}

/** Leading spaces of the identifier are dropped (docs/product.md §1.5); trailing ones too, they are never meant. */
export function validateLogin(input: LoginInput): { ok: true; identifier: string; password: string } | { ok: false; error: string } {
  const identifier = input.identifier.trim();
  if (!identifier) return { ok: false, error: AUTH_MESSAGES.identifierRequired };
  if (!input.password) return { ok: false, error: AUTH_MESSAGES.passwordRequired };
  return { ok: true, identifier, password: input.password };
}

export function validateRegister(input: RegisterPayload): { ok: true; payload: RegisterPayload } | { ok: false; error: string } {
  const payload: RegisterPayload = {
    first_name: input.first_name.trim(),
    last_name: input.last_name.trim(),
    email: input.email.trim(),
    username: input.username.trim(),
    password: input.password,
  };
  if (!payload.first_name || !payload.last_name || !payload.email || !payload.username || !payload.password) return { ok: false, error: AUTH_MESSAGES.required };
  if (!isEmail(payload.email)) return { ok: false, error: AUTH_MESSAGES.invalidEmail };
  return { ok: true, payload };
}

export function validateNewPassword(password: string, confirmation: string): string | null {
  if (password.length < PASSWORD_MIN) return AUTH_MESSAGES.passwordTooShort;
  if (password !== confirmation) return AUTH_MESSAGES.passwordMismatch;
  return null;
}

/** A registration succeeded when the server says so (status 'success'), or, saying nothing, handed a key. */
export function registrationSucceeded(answer: { status?: unknown; token?: unknown; apiKey?: unknown } | null | undefined): boolean {
  if (!answer) return false;
  if (typeof answer.status === 'string') return answer.status.toLowerCase() === 'success';
  return typeof answer.token === 'string' || typeof answer.apiKey === 'string';
}

export type AuthTab = 'login' | 'register';

export function tabFromQuery(value: string | null): AuthTab {
  return value === 'register' ? 'register' : 'login';
}
