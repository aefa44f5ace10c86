#!/usr/bin/env node
/**
 * `make up`: NATS, FerretDB and every service on this machine, state kept in
 * <repo>/.transmute between runs. Ctrl-C (or SIGTERM) stops the services,
 * then the infrastructure.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createInfraProvider } from '../infra/create-infra-provider';
import type { RunningInfra } from '../infra/infra-provider';
import type { RunningPlatform } from '../platform/platform-types';
import { registeredFamilies } from '../platform/converter-families';
import { startPlatform } from '../platform/start-platform';
import { repoRoot } from '../repo-root';
import { writeEndpointsFile } from './endpoints-file';
import { acquirePidLock } from './pid-lock';

const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

async function main(): Promise<void> {
  const removeEarlyExit = exitAtOnceOnSignal();
  const stateDir = join(repoRoot(), '.transmute');
  const releaseLock = await acquirePidLock(join(stateDir, 'up.pid'));
  try {
    const { infra, platform, removeEndpoints } = await startEverything(stateDir);
    removeEarlyExit();
    const signal = await nextStopSignal();
    console.log(`\n${signal}: stopping services, then NATS and FerretDB (Ctrl-C again to force) ...`);
    exitAtOnceOnSignal();
    removeEndpoints();
    await shutdown(platform, infra);
    console.log('stopped');
  } finally {
    releaseLock();
  }
}

async function startEverything(stateDir: string): Promise<{ infra: RunningInfra; platform: RunningPlatform; removeEndpoints: () => void }> {
  const dataDir = join(stateDir, 'data');
  const logDir = join(stateDir, 'logs');

  console.log('starting NATS and FerretDB ...');
  const infra = await createInfraProvider().start({ dataDir });
  console.log(`starting services (logs in ${logDir}) ...`);
  let platform: RunningPlatform;
  try {
    // Every registered converter family, one process each (tests start the subset they need).
    const families = registeredFamilies();
    console.log(`converter families: ${families.join(', ')}`);
    platform = await startPlatform({ infra, dataDir, logDir, families, extraEnv: shellOverrides(process.env) });
  } catch (error) {
    await infra.stop();
    throw error;
  }

  // The admin CLI seeds account "dev" and its key (idempotent; the gateway did the same at start).
  await seedDevAccount(platform.env);
  const keyFile = join(stateDir, 'dev-api-key');
  await writeFile(keyFile, `${platform.devApiKey}\n`, { mode: 0o600 });
  // The ports are free ones: the admin CLI (and anyone) finds them here.
  const endpointsFile = join(stateDir, 'endpoints.json');
  const removeEndpoints = await writeEndpointsFile(endpointsFile, infra, platform);
  process.once('exit', removeEndpoints);
  console.log(
    [
      '',
      `Transmute is up:  ${platform.baseUrl}`,
      `website:          ${platform.baseUrl}/   (dashboard: ${platform.baseUrl}/dashboard)`,
      `dev API key:      ${platform.devApiKey}   (also in ${keyFile})`,
      `MCP server:       ${platform.mcpUrl}   (OAuth, or the API key as a bearer token)`,
      `logs:             ${logDir}/<service>.log`,
      `NATS:             ${infra.natsUrl}`,
      `MongoDB (wire):   ${infra.mongoUri}`,
      `endpoints:        ${endpointsFile}   (read by pnpm admin)`,
      '',
      'Ctrl-C stops everything.',
    ].join('\n'),
  );
  return { infra, platform, removeEndpoints };
}

/** `transmute-admin seed-dev` against the running platform's NATS and database. */
async function seedDevAccount(platformEnv: Record<string, string>): Promise<void> {
  const cli = join(repoRoot(), 'services', 'gateway', 'dist', 'admin', 'main.js');
  const { stdout } = await promisify(execFile)(process.execPath, [cli, 'seed-dev'], {
    env: { PATH: process.env['PATH'] ?? '', ...platformEnv },
    timeout: 60_000,
  });
  console.log(`transmute-admin seed-dev: ${stdout.trim()}`);
}

/**
 * While starting (or on a second Ctrl-C while stopping), a stop signal exits
 * at once: the 'exit' hook of the process reaper SIGKILLs every child already
 * started. Returns a function that removes the handler.
 */
function exitAtOnceOnSignal(): () => void {
  const exit = (signal: NodeJS.Signals): void => {
    console.error(`\n${signal}: exiting now`);
    process.exit(130);
  };
  STOP_SIGNALS.forEach((signal) => process.on(signal, exit));
  return () => STOP_SIGNALS.forEach((signal) => process.off(signal, exit));
}

function nextStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => STOP_SIGNALS.forEach((signal) => process.once(signal, () => resolve(signal))));
}

/** Services first, so none of them logs errors about a vanished NATS or database. */
async function shutdown(platform: RunningPlatform, infra: RunningInfra): Promise<void> {
  await platform.stop();
  await infra.stop();
}

/** TRANSMUTE_* variables set in the shell override the platform's defaults (e.g. TRANSMUTE_LOG_LEVEL=debug). */
function shellOverrides(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[0].startsWith('TRANSMUTE_') && entry[1] !== undefined));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
