import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from '@bufbuild/protobuf';
import { type TaskSpec, TaskSpecSchema, type TaskWork, TaskWorkSchema } from '@transmute/contracts';
import { loadConfig } from '@transmute/service-kit';
import { FsStorage } from '@transmute/storage';
import { type ImporterConfig, importerConfig } from '../src/config';

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A few MB of random bytes: large enough to cross several stream chunks, random so nothing compresses it away. */
export const sampleBytes = (size = 3 * 1024 * 1024 + 17) => randomBytes(size);

export function importerConfigFor(env: Record<string, string>): ImporterConfig {
  return loadConfig(importerConfig, { TRANSMUTE_STORAGE_SIGNING_KEY: 's'.repeat(32), TRANSMUTE_CREDENTIALS_KEY: 'k'.repeat(32), TRANSMUTE_CONNECT_TIMEOUT_MS: '3000', ...env });
}

export async function tempStorage(): Promise<{ storage: FsStorage; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'importer-int-'));
  return { storage: new FsStorage({ root, signingKey: 's'.repeat(32), publicUrl: 'http://127.0.0.1:1' }), cleanup: () => rm(root, { recursive: true, force: true }) };
}

export function workFor(spec: Partial<Omit<TaskSpec, '$typeName'>>, inputFormat = 'bin'): TaskWork {
  return create(TaskWorkSchema, {
    jobId: randomBytes(16).toString('hex'),
    taskName: 'source',
    attempt: 1,
    accountId: 'acc',
    spec: create(TaskSpecSchema, spec),
    inputFormat,
  });
}

export const context = () => ({ signal: new AbortController().signal, deliveryCount: 1 });

/** A service account as Google issues them, with a real RSA key (fake-gcs-server does not check it). */
export function serviceAccount(): { clientEmail: string; privateKey: string; projectId: string } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { generateKeyPairSync } = require('node:crypto') as typeof import('node:crypto');
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    clientEmail: 'transmute-test@transmute-test.iam.gserviceaccount.com',
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    projectId: 'transmute-test',
  };
}
