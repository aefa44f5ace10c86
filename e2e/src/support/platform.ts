import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInfraProvider, type RunningInfra, type RunningPlatform, startPlatform } from '@transmute/devstack';
import { TransmuteClient } from './api-client';

/** NATS, FerretDB and every service, started for one test file (or one benchmark run). */
export interface LocalPlatform {
  infra: RunningInfra;
  platform: RunningPlatform;
  client: TransmuteClient;
  /** Everything of this run: logs/, data/ (storage, secrets), infra/. */
  rootDir: string;
  /** <service>.log per service. */
  logDir: string;
  /** Stops the services, then NATS and FerretDB; removes rootDir unless keepFiles. Safe to call twice. */
  stop(options?: { keepFiles?: boolean }): Promise<void>;
}

export interface StartLocalPlatformOptions {
  /** Names the temporary folder, e.g. the spec file. */
  name: string;
  /** Added to every service's environment. */
  extraEnv?: Record<string, string>;
  /** Gateway processes (default 1); see RunningPlatform.gatewayUrls. */
  gatewayReplicas?: number;
  /** Converter families to run (default: devstack's, i.e. image). */
  families?: string[];
  /** More processes of a service, e.g. `{ 'converter-image': 2 }` (devstack's `replicas`). */
  replicas?: Record<string, number>;
}

/**
 * Starts infra and platform on free ports (`gatewayPort: 0`) with each
 * service logging to <rootDir>/logs/<service>.log. On a failed start the logs
 * are kept and their folder is named in the error.
 */
export async function startLocalPlatform(options: StartLocalPlatformOptions): Promise<LocalPlatform> {
  const rootDir = await mkdtemp(join(tmpdir(), `transmute-${options.name.replace(/[^a-zA-Z0-9-]/g, '-')}-`));
  const logDir = join(rootDir, 'logs');
  const infra = await createInfraProvider().start({ dataDir: join(rootDir, 'infra') });
  let platform: RunningPlatform;
  try {
    platform = await startPlatform({
      infra,
      dataDir: join(rootDir, 'data'),
      gatewayPort: 0,
      logDir,
      ...(options.extraEnv && { extraEnv: options.extraEnv }),
      ...(options.gatewayReplicas && { gatewayReplicas: options.gatewayReplicas }),
      ...(options.families && { families: options.families }),
      ...(options.replicas && { replicas: options.replicas }),
    });
  } catch (error) {
    await infra.stop().catch(() => undefined);
    throw new Error(`the platform did not start; logs in ${logDir}`, { cause: error });
  }
  let stopped: Promise<void> | undefined;
  return {
    infra,
    platform,
    client: new TransmuteClient(platform.baseUrl, platform.devApiKey),
    rootDir,
    logDir,
    stop: (stopOptions = {}) =>
      (stopped ??= (async () => {
        const failures: unknown[] = [];
        await platform.stop().catch((error: unknown) => failures.push(error));
        await infra.stop().catch((error: unknown) => failures.push(error));
        if (!stopOptions.keepFiles && failures.length === 0) await rm(rootDir, { recursive: true, force: true });
        if (failures.length > 0) throw new AggregateError(failures, `stopping the platform failed; files kept in ${rootDir}`);
      })()),
  };
}

/** The last `lines` lines of every service log, for failure reports. */
export async function logTails(logDir: string, lines = 20): Promise<string> {
  if (!existsSync(logDir)) return `(no log folder ${logDir})`;
  const parts: string[] = [];
  for (const file of (await readdir(logDir)).sort()) {
    if (!file.endsWith('.log')) continue;
    const text = await readFile(join(logDir, file), 'utf8');
    const tail = text.trimEnd().split('\n').slice(-lines).join('\n');
    parts.push(`--- ${file} (last ${lines} lines) ---\n${tail}`);
  }
  return parts.join('\n');
}

/** Lines of one service's log that contain `needle`. */
export async function logLines(logDir: string, service: string, needle: string | RegExp): Promise<string[]> {
  const path = join(logDir, `${service}.log`);
  if (!existsSync(path)) return [];
  const text = await readFile(path, 'utf8');
  return text.split('\n').filter((line) => (typeof needle === 'string' ? line.includes(needle) : needle.test(line)));
}
