import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Task credentials at rest (issue 5). The stored spec keeps them only sealed
 * (AES-256-GCM under a key from configuration, which the database never
 * holds); they are opened only to build the work message, and the whole spec
 * is erased when the job ends (JobProgress).
 */

/** proto3 JSON names of the TaskSpec fields that are credentials. */
export const CREDENTIAL_FIELDS = ['accessKeyId', 'secretAccessKey', 'sessionToken', 'password', 'privateKey'] as const;
const SEALED_FIELD = 'sealedCredentials';
const VERSION = 'v1';

/** The sealing key: TRANSMUTE_CREDENTIALS_KEY, or else one derived from the download token key. */
export function credentialKey(config: { credentialsKey?: string | undefined; downloadTokenKey: string }): Buffer {
  const secret = config.credentialsKey || config.downloadTokenKey;
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
  return { ...rest, [SEALED_FIELD]: [VERSION, iv, cipher.getAuthTag(), sealed].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.') };
}

/** The spec with its credentials back in place, for the work message. Fails if the seal was tampered with. */
export function openCredentials(spec: Record<string, unknown>, key: Buffer): Record<string, unknown> {
  const sealed = spec[SEALED_FIELD];
  if (typeof sealed !== 'string') return spec;
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || !data) throw new Error('sealed task credentials are malformed');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  const plain = Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  const { [SEALED_FIELD]: _sealed, ...rest } = spec;
  return { ...rest, ...(JSON.parse(plain) as Record<string, unknown>) };
}
