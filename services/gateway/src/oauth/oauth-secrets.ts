import { createHash, randomBytes } from 'node:crypto';

/**
 * Opaque bearer secrets: 256 random bits, with a prefix saying what they are
 * (so a leaked one is recognisable in a log scanner). Only their SHA-256
 * digest is ever stored; the digest is also the record's key, so a lookup is
 * one read by key.
 */
export const SecretKind = {
  accessToken: 'tmat',
  refreshToken: 'tmrt',
  authorizationCode: 'tmac',
} as const;
export type SecretKind = (typeof SecretKind)[keyof typeof SecretKind];

export function newSecret(kind: SecretKind): string {
  return `${kind}_${randomBytes(32).toString('base64url')}`;
}

/** The stored form of a secret: hex SHA-256 (a valid NATS KV key). */
export function secretDigest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function isSecretOf(kind: SecretKind, value: string): boolean {
  return value.startsWith(`${kind}_`);
}

/** A random identifier safe in KV keys and URLs (grants, pending consents). */
export function newId(): string {
  return randomBytes(16).toString('hex');
}

/** Whether a bearer credential is one of our OAuth access tokens (else it may be an API key). */
export const isAccessToken = (credential: string): boolean => isSecretOf(SecretKind.accessToken, credential);
