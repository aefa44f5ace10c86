import { ServiceFailure } from '@transmute/contracts';

export const PASSWORD_MIN_LENGTH = 10;
/** Argon2 hashes anything, but a megabyte password is only a way to burn our CPU. */
export const PASSWORD_MAX_LENGTH = 128;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const EMAIL_MAX_LENGTH = 254;

/** The address as stored and compared: trimmed, lowercased; 422 when it is not an address. */
export function normaliseEmail(input: unknown): string {
  const email = typeof input === 'string' ? input.trim().toLowerCase() : '';
  if (email.length === 0 || email.length > EMAIL_MAX_LENGTH || !EMAIL.test(email)) throw ServiceFailure.validation('email: enter an email address like name@example.com');
  return email;
}

/** What is wrong with a new password, or null: length 10-128 characters, not the address, not one repeated character. */
export function passwordProblem(password: string, email: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `password: at least ${PASSWORD_MIN_LENGTH} characters`;
  if (length > PASSWORD_MAX_LENGTH) return `password: at most ${PASSWORD_MAX_LENGTH} characters`;
  if (password.trim().toLowerCase() === email) return 'password: must not be your email address';
  if (new Set(password).size === 1) return 'password: must not be one character repeated';
  return null;
}

/** A password field: a string within the maximum (sign-in checks no other rule, so old passwords keep working). */
export function passwordField(input: unknown): string {
  if (typeof input !== 'string' || input.length === 0) throw ServiceFailure.validation('password: required');
  if ([...input].length > PASSWORD_MAX_LENGTH) throw ServiceFailure.validation(`password: at most ${PASSWORD_MAX_LENGTH} characters`);
  return input;
}

/**
 * Where to go after signing in: a same-origin relative path only ("/x", not
 * "//host", "/\\host" or an absolute URL), so `?next=` cannot send anyone to
 * another site. Anything else gives the fallback.
 */
export function safeNext(next: unknown, fallback = '/dashboard'): string {
  if (typeof next !== 'string' || next.length === 0 || next.length > 2048) return fallback;
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback;
  // Control characters and backslashes let some browsers reinterpret the path as another host.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (/[\u0000-\u001f\u007f\\]/.test(next)) return fallback;
  return next;
}
