// Changing an account's password: the current one is required (a wrong one
// counts as a failed sign-in for the limiter of src/auth/sign-in-limit.ts), the new
// one follows the rule of every account and is hashed as the CLI does; the
// account's other console sessions end, since whoever knew the old password
// may hold one. Basic credentials change with the password (they are checked
// against it on every request); personal tokens stay.
import { prisma } from '../db.js';
import { badRequest, said } from '../errors.js';
import { hashPassword, verifyPassword } from '../auth/secrets.js';
import { announceEndedSessions, endOtherSessions, type SessionLimits } from '../auth/sessions.js';
import { countSignInAttempt } from '../auth/sign-in-limit.js';
import { checkNewPassword } from './accounts.js';

export interface PasswordChange {
  accountId: number;
  currentPassword: string;
  newPassword: string;
  /** The session to keep signed in (the request's own), if the request has one. */
  keepSession?: number;
  /** The client's address, for the failed-attempt limiter. */
  address: string;
}

/** Changes the password; returns how many other sessions were signed out. */
export async function changePassword(change: PasswordChange, limits: SessionLimits): Promise<number> {
  const account = await prisma().account.findUniqueOrThrow({
    where: { id: change.accountId },
    select: { email: true, passwordHash: true },
  });
  const succeeded = await countSignInAttempt(account.email, change.address, limits);
  if (!(await verifyPassword(change.currentPassword, account.passwordHash)))
    throw badRequest(said('current-password-wrong'));
  await succeeded();
  checkNewPassword(change.newPassword, 'newPassword');
  const passwordHash = await hashPassword(change.newPassword);
  const ended = await prisma().$transaction(async (tx) => {
    await tx.account.update({ where: { id: change.accountId }, data: { passwordHash } });
    return endOtherSessions(change.accountId, change.keepSession, tx);
  });
  announceEndedSessions(ended);
  return ended.length;
}
