// The operator's commands on accounts (admin.cli.ts): the first admin, and a new password. Each
// input passes registration's own checks; the account is made by registration's createAccount.
import {
  fromSignUpRequest,
  signUpRequestSchema,
  todayIn,
  validatePassword,
  validateRegistration,
  type SignUpRequest,
} from '@versus/domain';
import * as repo from '../auth/auth.repository.ts';
import { createAccount, normalizeEmail, refuseCommonPassword } from '../auth/auth.service.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { Database } from '../db/database.ts';
import { badRequest, notFound } from '../http/errors.ts';

export interface NewAdmin {
  email: string;
  password: string;
  /** Default: the email's part before the @. */
  username?: string;
  /** Default: the username. */
  fullName?: string;
  /** The profile requires a phone and an adult's date of birth; an operator's admin needs neither. */
  phone?: string;
  dateOfBirth?: string;
}

export const ADMIN_PLACEHOLDERS = { phone: '+0 000 000 0000', dateOfBirth: '1970-01-01' } as const;

/** The admin as a registration request, refused (400, registration's message) if registration would refuse it. */
export function adminSignUp(admin: NewAdmin): SignUpRequest {
  const username = admin.username ?? admin.email.trim().split('@')[0] ?? '';
  const parsed = signUpRequestSchema.safeParse({
    email: admin.email,
    password: admin.password,
    options: {
      data: {
        account_type: 'real',
        username,
        display_name: username,
        full_name: admin.fullName ?? username,
        phone: admin.phone ?? ADMIN_PLACEHOLDERS.phone,
        date_of_birth: admin.dateOfBirth ?? ADMIN_PLACEHOLDERS.dateOfBirth,
        age_verified: true,
        timezone: 'UTC',
      },
    },
  });
  if (!parsed.success) throw badRequest('invalid_input', parsed.error.issues[0]!.message);
  const invalid = validateRegistration(fromSignUpRequest(parsed.data), todayIn('UTC'));
  if (invalid) throw badRequest('invalid_input', invalid.message, invalid.field);
  return parsed.data;
}

/** Creates a real-money admin account (409 with registration's message for a taken email or username). */
export async function createAdmin(db: Database, request: SignUpRequest): Promise<{ userId: string; username: string }> {
  const data = request.options.data;
  const username = data.username.trim();
  await refuseCommonPassword(request.password, request.email, username);
  const userId = await createAccount(db, {
    email: request.email,
    password: request.password,
    username,
    displayName: username,
    fullName: data.full_name.trim(),
    phone: data.phone.trim(),
    dateOfBirth: data.date_of_birth,
    timezone: 'UTC',
    accountType: 'real',
    role: 'admin',
  });
  return { userId, username };
}

/** Registration's rules for a password, alone (400 with its message). */
export function checkNewPassword(password: string): void {
  const parsed = signUpRequestSchema.shape.password.safeParse(password);
  if (!parsed.success) throw badRequest('invalid_input', parsed.error.issues[0]!.message, 'password');
  const invalid = validatePassword(password);
  if (invalid) throw badRequest('invalid_input', invalid.message, invalid.field);
}

/** Gives the account a new password and ends all its sessions (someone else may hold one). */
export async function setPassword(db: Database, email: string, password: string): Promise<void> {
  checkNewPassword(password);
  const credentials = await repo.findCredentialsByEmail(db, normalizeEmail(email));
  if (!credentials) throw notFound(`No account has the email ${normalizeEmail(email)}.`);
  await refuseCommonPassword(password, email);
  const hash = await hashPassword(password);
  await db.transaction(async (tx) => {
    await repo.updatePasswordHash(tx, credentials.id, hash);
    await repo.revokeUserSessions(tx, credentials.id);
  });
}
