import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { create } from '@bufbuild/protobuf';
import { type TaskSpec, TaskSpecSchema, type TaskWork, TaskWorkSchema } from '@transmute/contracts';
import { loadConfig } from '@transmute/service-kit';
import { FsStorage, storageKey } from '@transmute/storage';
import { type ExporterConfig, exporterConfig } from '../src/config';

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
export const sampleBytes = (size = 3 * 1024 * 1024 + 17) => randomBytes(size);

export function exporterConfigFor(env: Record<string, string>): ExporterConfig {
  return loadConfig(exporterConfig, {
    TRANSMUTE_STORAGE_SIGNING_KEY: 's'.repeat(32),
    TRANSMUTE_DOWNLOAD_TOKEN_KEY: 'd'.repeat(32),
    TRANSMUTE_CREDENTIALS_KEY: 'k'.repeat(32),
    TRANSMUTE_CONNECT_TIMEOUT_MS: '3000',
    ...env,
  });
}

export async function tempStorage(): Promise<{ storage: FsStorage; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'exporter-int-'));
  return { storage: new FsStorage({ root, signingKey: 's'.repeat(32), publicUrl: 'http://127.0.0.1:1' }), cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** Stores `files` as a convert's results and builds the export task that delivers them. */
export async function exportWork(storage: FsStorage, spec: Partial<Omit<TaskSpec, '$typeName'>>, files: Array<{ filename: string; bytes: Buffer }>): Promise<TaskWork> {
  const jobId = randomBytes(16).toString('hex');
  const inputs = [];
  for (const { filename, bytes } of files) {
    const key = storageKey('jobs', jobId, 'convert', filename);
    await storage.put(key, Readable.from([bytes]));
    inputs.push({ key, filename, size: BigInt(bytes.length), format: filename.split('.').pop() ?? '' });
  }
  return create(TaskWorkSchema, { jobId, taskName: 'deliver', attempt: 1, accountId: 'acc', spec: create(TaskSpecSchema, { input: ['convert'], ...spec }), inputs });
}

export const context = () => ({ signal: new AbortController().signal, deliveryCount: 1 });

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
