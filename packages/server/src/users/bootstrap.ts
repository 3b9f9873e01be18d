import { randomBytes } from 'node:crypto';
import { UniqueConstraintError } from 'sequelize';
import { checkEmail, checkNewPassword, checkUsername } from '../auth/rules.js';
import { hashPassword } from '../auth/secrets.js';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import { userWithEmail } from './lookup.js';

/**
 * On first start, creates the admin account from ADMIN_EMAIL / ADMIN_PASSWORD, or with a
 * generated password that is printed once. Does nothing once an admin exists (changing the
 * variables later does not touch the account). A username held by a user does not stop the
 * start: the admin takes the first free `{username}-{n}` (docs/admin.md#the-admin-account).
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
  // The username may be held by a user (one who registered it before it was reserved, or a name
  // ADMIN_USERNAME picked that is not reserved): the start never fails for that. The admin gets
  // the first free name of `{username}`, `{username}-2`, `{username}-3`…, said in the log; the user
  // keeps theirs. A registration taking the name meanwhile is met by the unique index: next name.
  let username = admin.username;
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? admin.username : `${admin.username.slice(0, 28)}-${n}`;
    const created = await db
      .transaction(async (t) => {
        const taken = await userWithEmail(db, admin.email, t);
        // Never promote an existing account: whoever registered the address first is not the operator.
        if (taken) throw new Error(`cannot create the admin account: ${admin.email} belongs to an existing user; set ADMIN_EMAIL to another address`);
        if (await User.findOne({ where: { username: candidate }, attributes: ['id'], transaction: t })) return false;
        await User.create(
          { email: admin.email, username: candidate, firstName: 'Admin', lastName: '', passwordHash, role: 'admin', emailVerified: true, emailVerifiedAt: clock.now() },
          { transaction: t },
        );
        return true;
      })
      .catch((err) => {
        if (err instanceof UniqueConstraintError && n < 100 && Object.keys(err.fields ?? {}).some((f) => /username/.test(f))) return false;
        throw err;
      });
    if (created) {
      username = candidate;
      break;
    }
    if (n >= 100) throw new Error(`cannot create the admin account: the usernames ${admin.username} to ${candidate} are all taken; set ADMIN_USERNAME to another name`);
  }
  if (username !== admin.username) {
    print(`bt: the username ${admin.username} belongs to an existing user: the admin account is created as ${username}`);
  }
  if (generated) {
    print(`bt: admin account created: ${admin.email} (username ${username}), password: ${generated}`);
    print('bt: this password is printed once; change it from the profile page or set ADMIN_PASSWORD before the first start.');
  } else {
    print(`bt: admin account created: ${admin.email} (username ${username}, password from ADMIN_PASSWORD)`);
  }
  return { created: true, generatedPassword: generated };
}
