import { randomBytes } from 'node:crypto';
import { checkEmail, checkNewPassword, checkUsername } from '../auth/rules.js';
import { hashPassword } from '../auth/secrets.js';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import { userWithEmail } from './lookup.js';

/**
 * On first start, creates the admin account from ADMIN_EMAIL / ADMIN_PASSWORD, or with a
 * generated password that is printed once. Does nothing once an admin exists (changing the
 * variables later does not touch the account).
 */
export async function ensureAdmin(
  db: Database,
  clock: Clock,
  admin: { email: string; password: string | null; username: string },
  print: (message: string) => void,
): Promise<{ created: boolean; generatedPassword?: string }> {
  const { User } = db.models;
  if (await User.findOne({ where: { role: 'admin', deletedAt: null } })) return { created: false };
  const generated = admin.password ? undefined : randomBytes(12).toString('base64url');
  const password = admin.password ?? generated!;
  try {
    checkEmail(admin.email);
    checkUsername(admin.username);
    checkNewPassword(password);
  } catch (err) {
    throw new Error(`invalid admin account (ADMIN_EMAIL / ADMIN_USERNAME / ADMIN_PASSWORD): ${(err as Error).message}`);
  }
  const passwordHash = await hashPassword(password);
  await db.transaction(async (t) => {
    const taken = await userWithEmail(db, admin.email, t);
    // Never promote an existing account: whoever registered the address first is not the operator.
    if (taken) throw new Error(`cannot create the admin account: ${admin.email} belongs to an existing user; set ADMIN_EMAIL to another address`);
    await User.create(
      { email: admin.email, username: admin.username, firstName: 'Admin', lastName: '', passwordHash, role: 'admin', emailVerified: true, emailVerifiedAt: clock.now() },
      { transaction: t },
    );
  });
  if (generated) {
    print(`bt: admin account created: ${admin.email} (username ${admin.username}), password: ${generated}`);
    print('bt: this password is printed once; change it from the profile page or set ADMIN_PASSWORD before the first start.');
  } else {
    print(`bt: admin account created: ${admin.email} (username ${admin.username}, password from ADMIN_PASSWORD)`);
  }
  return { created: true, generatedPassword: generated };
}
