import { prisma } from '../db.js';
import { badRequest, conflict, forbidden, isUniqueViolation, notFound, said } from '../errors.js';
import { hashPassword, randomToken, sha256 } from '../auth/secrets.js';

export interface CreateAccountInput {
  email: string;
  password: string;
  planId?: string;
  /** Display name (`accountName` in activity and webhooks). */
  name?: string;
}

const EMAIL = /^[^@\s]+@[^@\s]+$/;

/** The password rule of every account (created, invited, changed). */
export function checkNewPassword(password: string, field = 'password'): void {
  if (password.length < 8) throw badRequest(said('password-too-short', { field }));
}

export async function createAccount(
  input: CreateAccountInput,
  defaultPlan: string,
): Promise<{ id: number; email: string }> {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw badRequest(said('email-invalid'));
  checkNewPassword(input.password);
  const planId = input.planId ?? defaultPlan;
  if (!(await prisma().plan.findUnique({ where: { id: planId } }))) throw notFound(`Plan '${planId}' does not exist`);
  try {
    return await prisma().account.create({
      data: {
        email,
        passwordHash: await hashPassword(input.password),
        planId,
        name: input.name?.trim().slice(0, 200) ?? '',
      },
      select: { id: true, email: true },
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(said('account-exists', { email }));
    throw error;
  }
}

export async function setAccountPlan(email: string, planId: string): Promise<void> {
  if (!(await prisma().plan.findUnique({ where: { id: planId } }))) throw notFound(`Plan '${planId}' does not exist`);
  const updated = await prisma().account.updateMany({ where: { email: email.toLowerCase() }, data: { planId } });
  if (updated.count === 0) throw notFound(`No account with e-mail ${email}`);
}

/**
 * Creates a personal token and returns it; only its hash is stored, so this is
 * the one time it can be shown. A given value (ADMIN_TOKEN) is used as is.
 */
export async function createPersonalToken(
  accountId: number,
  name = '',
  value?: string,
  expiresAt: Date | null = null,
): Promise<string> {
  const token = value ?? randomToken('lms_pat_');
  await prisma().personalToken.create({
    data: { accountId, name, tokenHash: sha256(token), prefix: token.slice(0, 12), expiresAt },
  });
  return token;
}

/** First start: with no account at all, create the admin from ADMIN_EMAIL / ADMIN_PASSWORD. */
export async function bootstrapAdmin(
  admin: { email: string; password: string; token?: string } | undefined,
  defaultPlan: string,
): Promise<boolean> {
  if (!admin) return false;
  if ((await prisma().account.count()) > 0) return false;
  const account = await createAccount({ email: admin.email, password: admin.password }, defaultPlan);
  if (admin.token) await createPersonalToken(account.id, 'ADMIN_TOKEN', admin.token);
  return true;
}

/**
 * First start with no account and no ADMIN_* variables: create admin@localhost
 * with a random password and token, to be shown once in the log, so that the
 * quick start needs no other step (the Jenkins-style initial admin).
 */
export async function generateFirstAdmin(
  defaultPlan: string,
): Promise<{ email: string; password: string; token: string } | undefined> {
  if ((await prisma().account.count()) > 0) return undefined;
  const email = 'admin@localhost';
  const password = randomToken('', 12);
  const account = await createAccount({ email, password }, defaultPlan);
  const token = await createPersonalToken(account.id, 'first start');
  return { email, password, token };
}

/**
 * Self-service sign-up, when the operator allows it (ALLOW_SIGNUP=true):
 * a new account on the default plan and its first personal token (shown
 * once). Otherwise accounts come from the operator's CLI or invitations.
 */
export async function signUp(
  input: { email: string; password: string; name?: string | null },
  options: { allowSignup: boolean; defaultPlan: string },
): Promise<{ email: string; personalToken: string }> {
  if (!options.allowSignup)
    throw forbidden(
      'Sign-up is switched off on this service: ask its operator for an account or an invitation (ALLOW_SIGNUP=true enables it)',
    );
  const account = await createAccount(
    { email: input.email, password: input.password, name: input.name ?? undefined },
    options.defaultPlan,
  );
  return { email: account.email, personalToken: await createPersonalToken(account.id, 'sign-up') };
}
