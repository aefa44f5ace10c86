import { rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { RunningInfra } from '../infra/infra-provider';
import type { RunningPlatform } from '../platform/platform-types';

/**
 * The variables a tool beside the platform needs to reach it (the admin CLI:
 * NATS, the database, plans, the dev key). Read by `findLocalEndpoints` in
 * @transmute/service-kit, which owns the file's format.
 */
const SHARED_VARIABLES = [
  'TRANSMUTE_NATS_URL',
  'TRANSMUTE_MONGODB_URI',
  'TRANSMUTE_PUBLIC_URL',
  'TRANSMUTE_DEV_API_KEY',
  'TRANSMUTE_PLANS',
  'TRANSMUTE_DEFAULT_PLAN',
  'TRANSMUTE_DEV_ACCOUNT_PLAN',
];

/** Writes `<state>/endpoints.json` (owner-only: it holds the dev key) and returns a function removing it. */
export async function writeEndpointsFile(path: string, infra: RunningInfra, platform: RunningPlatform): Promise<() => void> {
  const env = Object.fromEntries(SHARED_VARIABLES.flatMap((name) => (platform.env[name] ? [[name, platform.env[name]]] : [])));
  const endpoints = {
    pid: process.pid,
    baseUrl: platform.baseUrl,
    natsUrl: infra.natsUrl,
    mongoUri: platform.env['TRANSMUTE_MONGODB_URI'] ?? infra.mongoUri,
    env: { ...env, TRANSMUTE_DEV_API_KEY: platform.devApiKey },
  };
  await writeFile(path, `${JSON.stringify(endpoints, null, 2)}\n`, { mode: 0o600 });
  return () => rmSync(path, { force: true });
}
