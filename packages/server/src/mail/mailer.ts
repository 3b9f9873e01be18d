import type { Transporter } from 'nodemailer';
import { importFor } from '../app/optional-module.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
}

/**
 * Outbound e-mail. `configured` is false when no SMTP server is set: callers then say so in
 * their answer (the verification link is returned instead of mailed, docs/architecture.md §3).
 */
export interface Mailer {
  readonly configured: boolean;
  send(message: MailMessage): Promise<void>;
}

export class SmtpMailer implements Mailer {
  readonly configured = true;
  private transport: Promise<Transporter> | null = null;

  constructor(
    private readonly smtpUrl: string,
    private readonly from: string,
  ) {}

  /** nodemailer is loaded by the first mail, not at every start (app/optional-module.ts). */
  private transporter(): Promise<Transporter> {
    this.transport ??= importFor('e-mail (SMTP_URL)', 'nodemailer', () => import('nodemailer')).then(({ createTransport }) => createTransport(this.smtpUrl));
    return this.transport;
  }

  async send(message: MailMessage): Promise<void> {
    const transport = await this.transporter();
    await transport.sendMail({ from: this.from, ...message });
  }

  close(): void {
    // A transport that never loaded has nothing to close.
    void this.transport?.then(
      (transport) => transport.close(),
      () => undefined,
    );
  }
}

export class DisabledMailer implements Mailer {
  readonly configured = false;
  async send(): Promise<void> {
    throw new Error('mail is not configured (SMTP_URL is not set)');
  }
}
