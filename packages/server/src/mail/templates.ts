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
