import { QueryTypes, type QueryInterface } from 'sequelize';
import { isEmail, normalizeEmail } from '../../auth/rules.js';

/**
 * Addresses stored before their one spelling (docs/security.md, "One address, one spelling"):
 * an account registered in NFD, or with a trailing dot, could no longer be found by its address
 * (sign-in, password reset), whose every look-up is now in the canonical form. Each is rewritten
 * to it, unless another account already holds that form (that one keeps it; the other signs in
 * by its username) or the form is refused (a full-width local part: left as it is).
 */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  const rows = await qi.sequelize.query<{ id: number; email: string }>('SELECT id, email FROM users WHERE email IS NOT NULL', { type: QueryTypes.SELECT });
  for (const row of rows) {
    const canonical = normalizeEmail(row.email);
    if (canonical === row.email || !isEmail(canonical)) continue;
    const holders = await qi.sequelize.query<{ id: number; email: string }>('SELECT id, email FROM users WHERE email = ?', { replacements: [canonical], type: QueryTypes.SELECT });
    if (holders.some((holder) => holder.email === canonical)) continue;
    await qi.bulkUpdate('users', { email: canonical }, { id: row.id });
  }
}

/** The earlier spellings are not kept: nothing to put back. */
export async function down(): Promise<void> {}
