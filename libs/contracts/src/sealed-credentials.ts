import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Task credentials (S3, SFTP, Google Cloud) are sealed with AES-256-GCM the
 * moment a job is created and stay sealed in the job store and in the work
 * messages on JetStream; only the importer or exporter that uses them opens
 * them, in memory. Every service holding the key gets it from
 * TRANSMUTE_CREDENTIALS_KEY; the database and NATS never see it.
 */

/** proto3 JSON names (also the generated field names) of the TaskSpec fields that are credentials. */
export const CREDENTIAL_FIELDS = ['accessKeyId', 'secretAccessKey', 'sessionToken', 'password', 'privateKey'] as const;
export type CredentialField = (typeof CREDENTIAL_FIELDS)[number];
/** The stored spec's field that holds the sealed credentials. */
export const SEALED_CREDENTIALS_FIELD = 'sealedCredentials';
const VERSION = 'v1';

/** The sealing key, derived from the configured secret. */
export function credentialKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'transmute', 'task-credentials-v1', 32));
}

/** The spec with its credential fields replaced by one sealed field; a spec without credentials is returned as is. */
export function sealCredentials(spec: Record<string, unknown>, key: Buffer): Record<string, unknown> {
  const credentials: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(spec)) {
    if ((CREDENTIAL_FIELDS as readonly string[]).includes(field)) credentials[field] = value;
    else rest[field] = value;
  }
  if (Object.keys(credentials).length === 0) return spec;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
  const envelope = [VERSION, iv, cipher.getAuthTag(), sealed].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
  return { ...rest, [SEALED_CREDENTIALS_FIELD]: envelope };
}

/** A stored spec taken apart: the spec without credentials, and the sealed envelope ('' when there is none). */
export function splitSealed(spec: Record<string, unknown>): { spec: Record<string, unknown>; sealed: string } {
  const { [SEALED_CREDENTIALS_FIELD]: sealed, ...rest } = spec;
  return { spec: rest, sealed: typeof sealed === 'string' ? sealed : '' };
}

/** The credentials in an envelope. Fails when it was sealed under another key or tampered with. */
export function openSealed(sealed: string, key: Buffer): Partial<Record<CredentialField, string>> {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || !data) throw new Error('sealed task credentials are malformed');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  const plain = Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  return JSON.parse(plain) as Partial<Record<CredentialField, string>>;
}
