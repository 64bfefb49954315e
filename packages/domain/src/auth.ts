import { z } from 'zod';
import { ACCOUNT_RULES, ACCOUNT_TYPES, ROLES } from './constants.ts';
import { AUTH } from './messages.ts';

// ---------------------------------------------------------------------------------------
// Client view of a user (SPEC §3 "User (client view)").

export const verifiedSchema = z.object({
  xbox: z.boolean(),
  playstation: z.boolean(),
  steam: z.boolean(),
  identity: z.boolean(),
  all: z.boolean(),
});

export const userSchema = z.object({
  id: z.string().uuid(),
  username: z.string(),
  email: z.string(),
  displayName: z.string(),
  avatar: z.string().nullable(),
  role: z.enum(ROLES),
  level: z.number().int(),
  wins: z.number().int(),
  losses: z.number().int(),
  streak: z.number().int(),
  rank: z.number().int(),
  verified: verifiedSchema,
  isFirstTimeSetup: z.boolean(),
  verificationCompletedAt: z.string().nullable(),
  createdAt: z.string(),
  lastLogin: z.string().nullable(),
  accountType: z.enum(ACCOUNT_TYPES),
});
export type User = z.infer<typeof userSchema>;

export const sessionSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  /** Seconds since the epoch. */
  expires_at: z.number().int(),
  expires_in: z.number().int(),
});
export type Session = z.infer<typeof sessionSchema>;

export const authResponseSchema = z.object({ user: userSchema, session: sessionSchema });
export type AuthResponse = z.infer<typeof authResponseSchema>;

// ---------------------------------------------------------------------------------------
// Forms. The checks run in the order SPEC §5 gives, and the first failure is the message.

export interface RegistrationForm {
  accountType: 'real' | 'virtual' | null;
  fullName: string;
  username: string;
  email: string;
  phone: string;
  /** yyyy-mm-dd */
  dateOfBirth: string;
  ageVerified: boolean;
  password: string;
}

export interface LoginForm {
  accountType: 'real' | 'virtual' | null;
  email: string;
  password: string;
}

export type FormField = 'accountType' | 'fullName' | 'username' | 'email' | 'phone' | 'dateOfBirth' | 'ageVerified' | 'password';
export interface FormError {
  field: FormField;
  message: string;
}

/** Age in whole years on `today`, counting months and days (a birthday not yet reached this year does not count). */
export function ageOn(dateOfBirth: string, today: Date): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dateOfBirth);
  if (!match) return Number.NaN;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  let age = today.getUTCFullYear() - y;
  const month = today.getUTCMonth() + 1;
  if (month < m || (month === m && today.getUTCDate() < d)) age -= 1;
  return age;
}

export function isValidDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  // Year 0 exists for JavaScript's Date but not for PostgreSQL's date (1 BC is followed by AD 1).
  if (!match || match[1] === '0000') return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

const blank = (value: string | undefined | null) => !value || value.trim() === '';

export function validateRegistration(form: RegistrationForm, today = new Date()): FormError | null {
  if (!form.accountType) return { field: 'accountType', message: AUTH.accountTypeRequired };
  if (blank(form.fullName)) return { field: 'fullName', message: AUTH.fullNameRequired };
  if (blank(form.username)) return { field: 'username', message: AUTH.usernameRequired };
  if (blank(form.email)) return { field: 'email', message: AUTH.emailRequired };
  if (blank(form.phone)) return { field: 'phone', message: AUTH.phoneRequired };
  if (blank(form.dateOfBirth)) return { field: 'dateOfBirth', message: AUTH.dateOfBirthRequired };
  if (!form.ageVerified) return { field: 'ageVerified', message: AUTH.mustBeAdult };
  const password = validatePassword(form.password ?? '');
  if (password) return password;
  const age = ageOn(form.dateOfBirth, today);
  if (!isValidDate(form.dateOfBirth) || !(age >= ACCOUNT_RULES.minAge)) return { field: 'dateOfBirth', message: AUTH.mustBeAdult };
  // Ours, after SPEC's list: shapes SPEC leaves open ("Bounds ... not shown").
  if (!EMAIL_PATTERN.test(form.email.trim())) return { field: 'email', message: AUTH.invalidEmail };
  const username = form.username.trim();
  if (!USERNAME_PATTERN.test(username)) return { field: 'username', message: USERNAME_RULE };
  if (form.fullName.trim().length > 100) return { field: 'fullName', message: AUTH.fullNameTooLong };
  if (!PHONE_PATTERN.test(form.phone.trim())) return { field: 'phone', message: AUTH.phoneInvalid };
  return null;
}

/** Registration's rules for a new password (also for one an operator sets from the command line). */
export function validatePassword(password: string): FormError | null {
  if (password.length < ACCOUNT_RULES.minPasswordLength) return { field: 'password', message: AUTH.passwordTooShort };
  return null;
}

export function validateLogin(form: LoginForm): FormError | null {
  if (!form.accountType) return { field: 'accountType', message: AUTH.accountTypeRequired };
  if (blank(form.email)) return { field: 'email', message: AUTH.emailRequired };
  if (!form.password) return { field: 'password', message: AUTH.passwordRequired };
  return null;
}

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const USERNAME_PATTERN = /^[A-Za-z0-9_]{3,24}$/;
export const USERNAME_RULE = 'Username must be 3 to 24 letters, digits or underscores';
export const PHONE_PATTERN = /^\+?[0-9 ()-]{7,20}$/;

// ---------------------------------------------------------------------------------------
// Wire shapes of the auth API (SPEC §7: sign up with email, password and user data).

export const signUpDataSchema = z.object({
  account_type: z.enum(ACCOUNT_TYPES).nullable().optional(),
  username: z.string().max(100, USERNAME_RULE),
  display_name: z.string().max(100, AUTH.displayNameInvalid).optional(),
  full_name: z.string().max(1000, AUTH.fullNameTooLong),
  phone: z.string().max(100, AUTH.phoneInvalid),
  date_of_birth: z.string().max(100, AUTH.mustBeAdult),
  age_verified: z.boolean(),
  timezone: z.string().max(64).optional(),
});

// Generous caps that only stop abuse (a megabyte "email" would otherwise be stored and hashed).
const emailField = z.string().max(254, 'Email must be at most 254 characters');
const passwordField = z.string().max(1024, 'Password must be at most 1024 characters');

export const signUpRequestSchema = z.object({
  email: emailField,
  password: passwordField,
  options: z.object({ data: signUpDataSchema }),
});
export type SignUpRequest = z.infer<typeof signUpRequestSchema>;

export const signInRequestSchema = z.object({
  email: emailField,
  password: passwordField,
  account_type: z.enum(ACCOUNT_TYPES).nullable().optional(),
});
export type SignInRequest = z.infer<typeof signInRequestSchema>;

export const updateUserRequestSchema = z
  .object({
    account_type: z.enum(ACCOUNT_TYPES).optional(),
    username: z.string().optional(),
    display_name: z.string().trim().min(1, AUTH.displayNameInvalid).max(40, AUTH.displayNameInvalid).optional(),
    avatar_url: z.string().max(500, AUTH.avatarUrlInvalid).nullable().optional(),
  })
  .strict();
export type UpdateUserRequest = z.infer<typeof updateUserRequestSchema>;

/** The form as the register modal holds it, to the wire shape. */
export function toSignUpRequest(form: RegistrationForm, timezone: string): SignUpRequest {
  return {
    email: form.email.trim(),
    password: form.password,
    options: {
      data: {
        account_type: form.accountType,
        username: form.username.trim(),
        display_name: form.username.trim(),
        full_name: form.fullName.trim(),
        phone: form.phone.trim(),
        date_of_birth: form.dateOfBirth,
        age_verified: form.ageVerified,
        timezone,
      },
    },
  };
}

/** The wire shape back to the form, so the server runs exactly the client's checks. */
export function fromSignUpRequest(request: SignUpRequest): RegistrationForm {
  const data = request.options.data;
  return {
    accountType: data.account_type ?? null,
    fullName: data.full_name,
    username: data.username,
    email: request.email,
    phone: data.phone,
    dateOfBirth: data.date_of_birth,
    ageVerified: data.age_verified,
    password: request.password,
  };
}

// ---------------------------------------------------------------------------------------
// Dates in the player's own time zone, and the rest of the auth and profile API.

/** A player turns 18 on their birthday where they live: today in `timeZone` at UTC midnight (unknown zones: UTC). */
export function todayIn(timeZone: string | undefined, now = new Date()): Date {
  let zone = 'UTC';
  if (timeZone && isTimeZone(timeZone)) zone = timeZone;
  const ymd = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  return new Date(`${ymd}T00:00:00Z`);
}

export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch (error) {
    if (error instanceof RangeError) return false;
    throw error;
  }
}

/** GET /api/auth/session: both null when signed out. */
export const sessionResponseSchema = z.object({ user: userSchema.nullable(), session: sessionSchema.nullable() });

/** GET /api/auth/user. */
export const userResponseSchema = z.object({ user: userSchema });

/** PATCH /api/auth/user and PATCH /api/profiles/:id: a new session only when the account type changed (the token carries it). */
export const updateUserResponseSchema = z.object({ user: userSchema, session: sessionSchema.optional() });

/** What any signed-in player may see of another (GET /api/profiles/:id). */
export const publicProfileSchema = z.object({
  id: z.string().uuid(),
  username: z.string(),
  display_name: z.string(),
  avatar_url: z.string().nullable(),
  role: z.enum(ROLES),
  level: z.number().int(),
  wins: z.number().int(),
  losses: z.number().int(),
  streak: z.number().int(),
  rank: z.number().int(),
  global_rank: z.number().int(),
});
export type PublicProfile = z.infer<typeof publicProfileSchema>;
export const profileResponseSchema = z.object({ profile: publicProfileSchema });

/** PATCH /api/profiles/:id: the user fields plus the virtual-mode look. */
export const updateProfileRequestSchema = updateUserRequestSchema.extend({
  virtual_theme: z
    .string()
    .regex(/^[a-z0-9-]{1,32}$/, 'Theme must be 1 to 32 lowercase letters, digits or dashes')
    .optional(),
  virtual_overlay_enabled: z.boolean().optional(),
});
export type UpdateProfileRequest = z.infer<typeof updateProfileRequestSchema>;
