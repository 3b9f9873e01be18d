import { badRequest } from '../app/errors.js';
import { characterCount } from '../app/input.js';
import { MSG } from '../app/messages.js';
import type { Database } from '../db/database.js';
import { supportMail, type Mailer } from '../mail/index.js';

export const SUPPORT_MESSAGE_MAX = 5000;
export const SUPPORT_NAME_MAX = 100;
/**
 * The context the web app adds (the page, the time) is clipped, never refused: the sender did not
 * type it and cannot fix it, and a message must not be lost for it. The bounds keep the stored
 * `meta` (a TEXT: 65,535 bytes on MySQL) far below its limit whatever the request holds.
 */
export const SUPPORT_PATH_MAX = 500;
export const SUPPORT_TS_MAX = 40;

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
    const { type, email, message } = input;
    // Names are one line each (they go into the mail's subject and its "De :" line): a CR/LF or
    // another control character becomes a space, as a tab typed in a name would be read.
    const firstName = oneLine(input.firstName);
    const lastName = oneLine(input.lastName);
    if (!firstName || !lastName || !email || !message) throw badRequest(MSG.allFieldsRequired);
    // No space or control character in an address: `a@b.c\r\nBcc: x@y.z` passed (it has an @) and
    // became a Reply-To group that answered x@y.z.
    if (!email.includes('@') || email.length > 191 || /[\s\u0000-\u001f\u007f-\u009f]/.test(email)) throw badRequest(MSG.supportEmailInvalid);
    if (type !== 'contact' && type !== 'feedback') throw badRequest(MSG.supportTypeInvalid);
    if (characterCount(message) > SUPPORT_MESSAGE_MAX) throw badRequest(MSG.supportTooLong(SUPPORT_MESSAGE_MAX));
    if (characterCount(firstName) > SUPPORT_NAME_MAX) throw badRequest(MSG.supportFirstNameTooLong(SUPPORT_NAME_MAX));
    if (characterCount(lastName) > SUPPORT_NAME_MAX) throw badRequest(MSG.supportLastNameTooLong(SUPPORT_NAME_MAX));
    const path = input.path?.slice(0, SUPPORT_PATH_MAX);
    const ts = typeof input.ts === 'string' ? input.ts.slice(0, SUPPORT_TS_MAX) : input.ts;
    const meta = JSON.stringify({ path: path ?? null, ts: ts ?? null });
    const { SupportMessage } = this.db.models;
    const row = await this.db.transaction((t) =>
      SupportMessage.create({ type, firstName, lastName, email, message, meta, userId, emailed: false }, { transaction: t }),
    );
    if (!this.mailer.configured || !this.supportEmail) return { id: row.id, emailed: false };
    try {
      await this.mailer.send(supportMail(this.supportEmail, { type, firstName, lastName, email, message, path }));
    } catch (err) {
      this.log(`support message ${row.id} stored but not mailed: ${(err as Error).message}`);
      return { id: row.id, emailed: false };
    }
    await this.db.transaction((t) => SupportMessage.update({ emailed: true }, { where: { id: row.id }, transaction: t }));
    return { id: row.id, emailed: true };
  }
}

const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').replace(/ {2,}/g, ' ').trim();
