import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Keys that must survive a restart so signed links and the dev key keep working. */
export interface PlatformSecrets {
  storageSigningKey: string;
  downloadTokenKey: string;
  /** Seals task credentials between the orchestrator and the importer/exporter. */
  credentialsKey: string;
  devApiKey: string;
}

const SECRETS_FILE = 'secrets.json';

export function generateSecrets(): PlatformSecrets {
  return {
    storageSigningKey: randomBytes(32).toString('hex'),
    downloadTokenKey: randomBytes(32).toString('hex'),
    credentialsKey: randomBytes(32).toString('hex'),
    devApiKey: `tm_dev_${randomBytes(16).toString('hex')}`,
  };
}

/** Reads <dataDir>/secrets.json, or creates it (owner-only) on the first start. */
export async function loadOrCreateSecrets(dataDir: string): Promise<PlatformSecrets> {
  const path = join(dataDir, SECRETS_FILE);
  const existing = await readIfPresent(path);
  if (existing !== undefined) {
    const { credentialsKey, ...kept } = parseSecrets(existing, path);
    if (credentialsKey) return { ...kept, credentialsKey };
    // A key added after the file was made is added to it; the others (links, the dev key) keep working.
    const upgraded = { ...kept, credentialsKey: randomBytes(32).toString('hex') };
    await writeSecrets(path, upgraded);
    return upgraded;
  }

  const secrets = generateSecrets();
  await mkdir(dataDir, { recursive: true });
  await writeSecrets(path, secrets);
  return secrets;
}

function writeSecrets(path: string, secrets: PlatformSecrets): Promise<void> {
  return writeFile(path, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
}

async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The file's keys; `credentialsKey` is empty in a file written before it existed. */
export function parseSecrets(text: string, path: string): PlatformSecrets {
  const fix = `delete ${path} to generate new keys (existing signed links and the dev API key stop working)`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${path} is not valid JSON: ${fix}`);
  }
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const keys: Array<keyof PlatformSecrets> = ['storageSigningKey', 'downloadTokenKey', 'devApiKey'];
  const missing = keys.filter((key) => typeof record[key] !== 'string' || record[key] === '');
  if (missing.length > 0) throw new Error(`${path} lacks ${missing.join(', ')}: ${fix}`);
  return {
    storageSigningKey: record['storageSigningKey'] as string,
    downloadTokenKey: record['downloadTokenKey'] as string,
    credentialsKey: typeof record['credentialsKey'] === 'string' ? record['credentialsKey'] : '',
    devApiKey: record['devApiKey'] as string,
  };
}
