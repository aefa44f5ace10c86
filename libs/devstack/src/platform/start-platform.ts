import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { LOOPBACK } from '../net/free-ports';
import { ManagedProcess, type OutputSink } from '../process/managed-process';
import { repoRoot } from '../repo-root';
import { loadOrCreateSecrets } from './platform-secrets';
import type { ManagedService, RunningPlatform, StartPlatformOptions } from './platform-types';
import { waitUntilReady } from './readiness';
import { assignPorts, DEFAULT_GATEWAY_PORT, extraGatewayDefinitions, extraReplicaDefinitions, GATEWAY, serviceDefinitions, type ServiceDefinition } from './service-catalog';
import { buildPlatformEnv, buildServiceEnv, mcpUrlOf } from './service-env';

/**
 * How long every service has to answer /readyz. On the shared 2-core machine
 * (load 30-40) the services took 62 s just to load Node and Nest
 * (2026-11-27), and the document family then warms LibreOffice, retrying a
 * failed first start: 60 s failed runs that would have come up.
 * TRANSMUTE_READY_TIMEOUT_MS changes it without touching what a test asserts.
 */
const READY_TIMEOUT_MS = Number(process.env['TRANSMUTE_READY_TIMEOUT_MS']) || 180_000;
const STOP_GRACE_MS = 10_000;

/** Starts every service as a `node services/<dir>/dist/main.js` process and waits until all are ready. */
export async function startPlatform(opts: StartPlatformOptions): Promise<RunningPlatform> {
  const root = repoRoot();
  const firsts = serviceDefinitions(opts.families);
  const definitions = [...firsts, ...extraGatewayDefinitions(opts.gatewayReplicas), ...extraReplicaDefinitions(firsts, opts.replicas)];
  const entries = new Map(definitions.map((def) => [def.name, join(root, 'services', def.dir, 'dist', 'main.js')]));
  assertBuilt(root, [...new Set(entries.values())]);

  const ports = await assignPorts(definitions, opts.gatewayPort ?? DEFAULT_GATEWAY_PORT);
  const portOf = (name: string): number => ports.get(name) as number;
  const secrets = await loadOrCreateSecrets(opts.dataDir);
  const env = buildPlatformEnv({
    natsUrl: opts.infra.natsUrl,
    mongoUri: opts.infra.mongoUri,
    gatewayPort: portOf(GATEWAY),
    mcpPort: portOf('mcp'),
    dataDir: opts.dataDir,
    secrets,
    ...(opts.extraEnv && { extraEnv: opts.extraEnv }),
  });
  await mkdir(env['TRANSMUTE_STORAGE_FS_ROOT'] ?? join(opts.dataDir, 'storage'), { recursive: true });
  if (opts.logDir) await mkdir(opts.logDir, { recursive: true });

  const running = new Map<string, ManagedProcess>();
  const definitionOf = (name: string): ServiceDefinition => {
    const def = definitions.find((d) => d.name === name);
    if (!def) throw new Error(`unknown service ${name}; known: ${definitions.map((d) => d.name).join(', ')}`);
    return def;
  };
  const output = (name: string): OutputSink => (opts.logDir ? { kind: 'file', path: join(opts.logDir, `${name}.log`) } : { kind: 'inherit' });
  const launch = (def: ServiceDefinition): ManagedProcess => {
    const managed = new ManagedProcess({
      name: def.name,
      command: process.execPath,
      args: [entries.get(def.name) as string],
      // Run from the service's own folder, as its container image does.
      cwd: join(root, 'services', def.dir),
      env: buildServiceEnv(process.env, env, { port: portOf(def.name), env: def.env }),
      output: output(def.name),
    });
    running.set(def.name, managed);
    return managed;
  };
  const stopOne = async (name: string): Promise<void> => {
    await running.get(name)?.stop(STOP_GRACE_MS);
  };

  // Not memoised: services restarted through startService must stop too.
  const stop = async (): Promise<void> => {
    await Promise.all([...running.keys()].map(stopOne));
  };

  try {
    const launched = definitions.map(launch);
    await waitUntilReady(
      launched.map((managed) => ({ managed, port: portOf(managed.name) })),
      READY_TIMEOUT_MS,
    );
  } catch (error) {
    await stop();
    throw error;
  }

  const services: ManagedService[] = definitions.map(({ name }) => ({
    name,
    port: portOf(name),
    url: `http://${LOOPBACK}:${portOf(name)}`,
    get pid() {
      return running.get(name)?.pid;
    },
    get running() {
      const managed = running.get(name);
      return managed !== undefined && !managed.hasExited;
    },
  }));

  return {
    baseUrl: `http://${LOOPBACK}:${portOf(GATEWAY)}`,
    gatewayUrls: definitions.filter((def) => def.dir === GATEWAY).map((def) => `http://${LOOPBACK}:${portOf(def.name)}`),
    devApiKey: secrets.devApiKey,
    mcpUrl: mcpUrlOf(portOf('mcp')),
    services,
    env,
    stopService: (name) => stopOne(definitionOf(name).name),
    killService: (name, signal) => running.get(definitionOf(name).name)?.signal(signal),
    startService: async (name) => {
      const def = definitionOf(name);
      const current = running.get(name);
      if (current && !current.hasExited) throw new Error(`${name} is already running (pid ${current.pid}); stop it first`);
      await waitUntilReady([{ managed: launch(def), port: portOf(name) }], READY_TIMEOUT_MS);
    },
    stop,
  };
}

function assertBuilt(root: string, entryPoints: string[]): void {
  const missing = entryPoints.filter((entry) => !existsSync(entry)).map((entry) => relative(root, entry));
  if (missing.length > 0) throw new Error(`not built: ${missing.join(', ')}: run \`make build\` (pnpm build)`);
}
