import type { MailMessage } from './mailer.js';

/** The French e-mails the server sends. */
export function verificationMail(to: string, firstName: string, url: string, credits: number): MailMessage {
  return {
    to,
    subject: 'Confirme ton adresse e-mail',
    text: [
      `Bonjour ${firstName || ''},`.replace(' ,', ','),
      '',
      `Confirme ton adresse e-mail pour recevoir tes ${credits} crédits offerts :`,
      url,
      '',
      "Si tu n'as pas créé de compte, ignore ce message.",
    ].join('\n'),
  };
}

export function resetMail(to: string, url: string, validMinutes: number): MailMessage {
  return {
    to,
    subject: 'Réinitialisation de ton mot de passe',
    text: [
      'Bonjour,',
      '',
      `Pour choisir un nouveau mot de passe, ouvre ce lien (valable ${validMinutes} minutes, une seule fois) :`,
      url,
      '',
      "Si tu n'as rien demandé, ignore ce message : ton mot de passe reste inchangé.",
    ].join('\n'),
  };
}

export function supportMail(
  to: string,
  m: { type: string; firstName: string; lastName: string; email: string; message: string; path?: string },
): MailMessage {
  const label = m.type === 'feedback' ? 'Améliorations & bugs' : 'Assistance & questions';
  return {
    to,
    replyTo: m.email,
    subject: `[Support] ${label} — ${m.firstName} ${m.lastName}`,
    text: [`De : ${m.firstName} ${m.lastName} <${m.email}>`, `Page : ${m.path ?? '-'}`, '', m.message].join('\n'),
  };
}

/**
 * The warning of an inactive account, 30 days before its archiving (docs/server.md "Inactive
 * accounts"): the day it goes, how to keep it, and the credits it would take with it.
 */
export function inactivityWarningMail(to: string, m: { firstName: string; lastActivity: string; archiveOn: string; credits: number; signInUrl: string }): MailMessage {
  return {
    to,
    subject: `Ton compte sera archivé le ${m.archiveOn}`,
    text: [
      `Bonjour ${m.firstName || ''},`.replace(' ,', ','),
      '',
      `Tu n'as pas utilisé ton compte depuis le ${m.lastActivity}. Sans connexion de ta part, il sera archivé le ${m.archiveOn} : tes stratégies, tes CSV et tes résultats seront supprimés, puis tes données personnelles effacées 12 mois plus tard.`,
      ...(m.credits > 1 ? ['', `Il te reste ${m.credits} crédits : ils ne pourront plus être utilisés une fois le compte archivé.`] : []),
      ...(m.credits === 1 ? ['', 'Il te reste 1 crédit : il ne pourra plus être utilisé une fois le compte archivé.'] : []),
      '',
      'Pour garder ton compte, il suffit de te connecter avant cette date :',
      m.signInUrl,
      '',
      "Si tu ne souhaites plus l'utiliser, tu n'as rien à faire.",
    ].join('\n'),
  };
}
