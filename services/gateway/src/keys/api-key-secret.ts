import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * An API key reads `tm_<prefix>_<secret>`. The prefix is not secret: it is the
 * stored key's `_id` (FerretDB pushes only `_id` filters down) and appears in
 * listings and logs. Only the SHA-256 of the whole key is stored.
 */
const KEY_FORMAT = /^tm_([a-z0-9]{3,24})_([A-Za-z0-9]{16,128})$/;

export interface GeneratedKey {
  prefix: string;
  /** Shown once, at creation; never stored. */
  key: string;
  hash: string;
}

/** 6 bytes of prefix (for look-up) and 24 bytes (192 bits) of secret. */
export function generateApiKey(): GeneratedKey {
  const prefix = randomBytes(6).toString('hex');
  const key = `tm_${prefix}_${randomBytes(24).toString('hex')}`;
  return { prefix, key, hash: hashApiKey(key) };
}

/** The prefix of a well-formed key, or null (then no look-up is made). */
export function apiKeyPrefix(key: string): string | null {
  return KEY_FORMAT.exec(key)?.[1] ?? null;
}

/**
 * A high-entropy random key cannot be guessed from its hash, so a fast hash is
 * enough; a slow KDF (bcrypt, scrypt) only protects low-entropy passwords.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented key with a stored hash (both digests have equal length). */
export function apiKeyMatches(key: string, storedHash: string): boolean {
  const expected = Buffer.from(storedHash, 'hex');
  const actual = Buffer.from(hashApiKey(key), 'hex');
  return expected.length === actual.length && timingSafeEqual(actual, expected);
}
