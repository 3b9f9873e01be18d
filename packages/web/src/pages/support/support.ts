/** The support form's rules (docs/product.md §1.3, §1.4, §1.5, §1.8). */
import type { SupportPayload } from '../../api/calls.js';
import { HttpError, NetworkError } from '../../api/errors.js';

export type SupportType = SupportPayload['type'];

export const SUPPORT_TABS: { id: SupportType; label: string }[] = [
  { id: 'contact', label: 'Assistance & questions' },
  { id: 'feedback', label: 'Améliorations & bugs' },
];

export const SUPPORT_MESSAGES = {
  required: 'Merci de remplir tous les champs.',
  invalidEmail: 'Merci d’entrer une adresse e-mail valide (doit contenir un @).',
  failed: 'Désolé, l’envoi a échoué. Réessayez.',
} as const;

export const SUPPORT_SENT_RESET_MS = 1600;

/** In the order of the form, which asks Prénom then Nom as sign-up does. */
export interface SupportFields {
  firstName: string;
  lastName: string;
  email: string;
  message: string;
}

export function validateSupport(fields: SupportFields): string | null {
  const values = [fields.firstName, fields.lastName, fields.email, fields.message].map((v) => v.trim());
  if (values.some((v) => v === '')) return SUPPORT_MESSAGES.required;
  if (!fields.email.includes('@')) return SUPPORT_MESSAGES.invalidEmail;
  return null;
}

export function supportPayload(type: SupportType, fields: SupportFields, path: string, now: number): SupportPayload {
  return {
    type,
    firstName: fields.firstName.trim(),
    lastName: fields.lastName.trim(),
    email: fields.email.trim(),
    message: fields.message.trim(),
    meta: { path, ts: now },
  };
}

/**
 * The alert of a failed send: the server's own sentence ('Merci d’entrer une adresse e-mail
 * valide…', the rate limit's), without the client's 'HTTP 400 — ' prefix, which no other form
 * shows; 'Erreur réseau.' without an answer; else the product's default.
 */
export function supportFailureMessage(error: unknown): string {
  if (error instanceof HttpError) return error.detail || SUPPORT_MESSAGES.failed;
  if (error instanceof NetworkError) return error.message;
  return SUPPORT_MESSAGES.failed;
}
