import { createTransport, type Transporter } from 'nodemailer';

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
  private readonly transport: Transporter;
  private readonly from: string;

  constructor(smtpUrl: string, from: string) {
    this.transport = createTransport(smtpUrl);
    this.from = from;
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...message });
  }

  close(): void {
    this.transport.close();
  }
}

export class DisabledMailer implements Mailer {
  readonly configured = false;
  async send(): Promise<void> {
    throw new Error('mail is not configured (SMTP_URL is not set)');
  }
}
