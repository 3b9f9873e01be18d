export type { Mailer, MailMessage } from './mailer.js';
export { SmtpMailer, DisabledMailer } from './mailer.js';
export * from './templates.js';
