import type { FormField } from '@versus/domain';

const SERVER_FIELDS: Record<string, FormField> = {
  email: 'email',
  password: 'password',
  username: 'username',
  display_name: 'username',
  full_name: 'fullName',
  phone: 'phone',
  date_of_birth: 'dateOfBirth',
  age_verified: 'ageVerified',
  account_type: 'accountType',
};

/** The form field a server error points at ("options.data.full_name" → fullName). */
export function formFieldOf(serverField: string | undefined): FormField | null {
  const last = serverField?.split('.').pop();
  return last ? (SERVER_FIELDS[last] ?? null) : null;
}

/** Today as yyyy-mm-dd in the user's time zone: the date picker cannot go past it. */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
