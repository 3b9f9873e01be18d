import { badRequest } from '../app/errors.js';
import { MSG } from '../app/messages.js';
import type { Database } from '../db/database.js';
import { supportMail, type Mailer } from '../mail/index.js';

export const SUPPORT_MESSAGE_MAX = 5000;

export interface SupportInput {
  type: string;
  firstName: string;
  lastName: string;
  email: string;
  message: string;
  path?: string;
  ts?: string | number;
}

/** The support form (docs/product.md §1.2, §1.5): every message is stored, then mailed to support. */
export class Support {
  constructor(
    private readonly db: Database,
    private readonly mailer: Mailer,
    private readonly supportEmail: string | null,
    private readonly log: (message: string) => void,
  ) {}

  async submit(input: SupportInput, userId: number | null): Promise<{ id: number; emailed: boolean }> {
    const { type, firstName, lastName, email, message } = input;
    if (!firstName || !lastName || !email || !message) throw badRequest(MSG.allFieldsRequired);
    if (!email.includes('@') || email.length > 191) throw badRequest(MSG.supportEmailInvalid);
    if (type !== 'contact' && type !== 'feedback') throw badRequest(MSG.supportTypeInvalid);
    if (message.length > SUPPORT_MESSAGE_MAX) throw badRequest(MSG.supportTooLong(SUPPORT_MESSAGE_MAX));
    if (firstName.length > 100 || lastName.length > 100) throw badRequest('Nom trop long (100 caractères maximum).');
    const meta = JSON.stringify({ path: input.path?.slice(0, 500) ?? null, ts: input.ts ?? null });
    const { SupportMessage } = this.db.models;
    const row = await this.db.transaction((t) =>
      SupportMessage.create({ type, firstName, lastName, email, message, meta, userId, emailed: false }, { transaction: t }),
    );
    if (!this.mailer.configured || !this.supportEmail) return { id: row.id, emailed: false };
    try {
      await this.mailer.send(supportMail(this.supportEmail, { type, firstName, lastName, email, message, path: input.path }));
    } catch (err) {
      this.log(`support message ${row.id} stored but not mailed: ${(err as Error).message}`);
      return { id: row.id, emailed: false };
    }
    await this.db.transaction((t) => SupportMessage.update({ emailed: true }, { where: { id: row.id }, transaction: t }));
    return { id: row.id, emailed: true };
  }
}
