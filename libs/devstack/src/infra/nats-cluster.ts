import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts, LOOPBACK } from '../net/free-ports';
import { ManagedProcess, OUTPUT_TAIL_LINES, type SpawnOptions } from '../process/managed-process';
import { defaultToolsBin, requireTool } from './local-tools';
import { httpStatus, STOP_GRACE_MS, waitUntilReady } from './test-servers-common';

export interface NatsServerPorts {
  client: number;
  monitor: number;
  /** The route port; only a clustered server has one. */
  cluster?: number;
}

export interface RunningNatsServer {
  name: string;
  /** nats://127.0.0.1:<client port> */
  url: string;
  monitorUrl: string;
  /** The server's last log lines: its routes, elections and warnings, for a failure's message. */
  outputTail(lines: number): string;
  /** Stops the server and starts it again on the same ports and state. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface RunningNatsCluster {
  servers: RunningNatsServer[];
  stop(): Promise<void>;
}

const SERVER_READY_MS = 30_000;
/** A group forms within a second on loopback (2.15.2: 58 of 60 starts; the others in 7.1 and 7.4 s); a server still leaderless after this is stuck. */
export const LEADERLESS_RESTART_MS = 10_000;
/** Enough for a server's half minute of routes and elections after its start-up banner. */
const LOG_LINES = 80;

/** Client, monitor and route ports for `count` clustered servers. */
export async function natsClusterPorts(count: number): Promise<Array<Required<NatsServerPorts>>> {
  const ports = await freePorts(count * 3);
  return Array.from({ length: count }, (_, i) => ({ client: ports[i * 3]!, monitor: ports[i * 3 + 1]!, cluster: ports[i * 3 + 2]! }));
}

/**
 * One real nats-server with JetStream on loopback, its state under
 * `dataRoot`; in a cluster when `routes` (the route ports of every member) is given.
 */
export async function startNatsServer(name: string, dataRoot: string, ports: NatsServerPorts, routes?: number[]): Promise<RunningNatsServer> {
  const cluster =
    ports.cluster === undefined || routes === undefined
      ? []
      : ['--cluster_name', 'transmute-test', '--cluster', `nats://${LOOPBACK}:${ports.cluster}`, '--routes', routes.map((port) => `nats://${LOOPBACK}:${port}`).join(',')];
  const server = new LocalNatsServer(name, ports, {
    name,
    command: requireTool(defaultToolsBin(), 'nats-server'),
    args: ['-js', '-a', LOOPBACK, '-p', String(ports.client), '-m', String(ports.monitor), '--server_name', name, '-sd', join(dataRoot, name), ...cluster],
    output: { kind: 'tail-only' },
  });
  await server.start();
  return server;
}

class LocalNatsServer implements RunningNatsServer {
  readonly url: string;
  readonly monitorUrl: string;
  private managed: ManagedProcess | undefined;

  constructor(
    readonly name: string,
    ports: NatsServerPorts,
    private readonly spawnOptions: SpawnOptions,
  ) {
    this.url = `nats://${LOOPBACK}:${ports.client}`;
    this.monitorUrl = `http://${LOOPBACK}:${ports.monitor}`;
  }

  async start(): Promise<void> {
    const managed = new ManagedProcess(this.spawnOptions);
    this.managed = managed;
    try {
      await waitUntilReady(managed, this.name, async () => (await httpStatus(`${this.monitorUrl}/varz`)) === 200, SERVER_READY_MS);
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  outputTail(lines: number): string {
    return this.managed?.outputTail(lines) ?? '';
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  async stop(): Promise<void> {
    await this.managed?.stop(STOP_GRACE_MS);
  }
}

/**
 * Restarts, as the kubelet restarts a pod whose startup probe keeps failing,
 * each server that has no meta leader or is not current with it.
 * nats-server 2.10.24 sometimes left a fresh group so for as long as we
 * watched: after the servers closed each other's duplicate routes, one
 * side's votes never reached the other. Upstream fixed a fault of this kind
 * in 2026 (nats-server pull 8527), and 2.15.2 formed a group in 60 of 60
 * starts of three without a restart; this stays because the chart's probe
 * does the same (docs/decisions.md). Returns the names restarted.
 */
async function restartLeaderless(servers: RunningNatsServer[]): Promise<string[]> {
  const statuses = await Promise.all(servers.map((server) => httpStatus(`${server.monitorUrl}/healthz?js-meta-only=true`).catch(() => 0)));
  const leaderless = servers.filter((_, i) => statuses[i] !== 200);
  await Promise.all(leaderless.map((server) => server.restart()));
  return leaderless.map((server) => server.name);
}

/**
 * For a wait's polling loop: each call restarts the servers still without a
 * meta leader once LEADERLESS_RESTART_MS have passed since the wait began
 * or since the last restart, and returns their names (none in between).
 */
export function leaderlessRestarter(servers: RunningNatsServer[]): () => Promise<string[]> {
  let restartAt = Date.now() + LEADERLESS_RESTART_MS;
  return async () => {
    if (Date.now() <= restartAt) return [];
    const restarted = await restartLeaderless(servers);
    restartAt = Date.now() + LEADERLESS_RESTART_MS;
    return restarted;
  };
}

/**
 * Each server's last log lines, which say whether its routes came up and
 * whether a vote was held. The warning a server logs for each failed health
 * probe is left out: polled twice a second, it would push those lines out.
 */
export function natsServerLogs(servers: RunningNatsServer[]): string {
  return servers
    .map((server) => {
      const lines = server.outputTail(OUTPUT_TAIL_LINES).split('\n');
      const told = lines.filter((line) => !line.includes('Healthcheck failed')).slice(-LOG_LINES);
      return `${server.name} output:\n${told.join('\n')}`;
    })
    .join('\n');
}

/**
 * `size` clustered nats-servers, ready once JetStream answers on each of
 * them (its meta group has a leader), so streams with `size` replicas can be made.
 */
export async function startNatsCluster(size = 3): Promise<RunningNatsCluster> {
  const dataRoot = await mkdtemp(join(tmpdir(), 'transmute-nats-cluster-'));
  const ports = await natsClusterPorts(size);
  const routes = ports.map((p) => p.cluster);
  const started = await Promise.allSettled(ports.map((p, i) => startNatsServer(`cluster-${i}`, dataRoot, p, routes)));
  const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const stop = async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await rm(dataRoot, { recursive: true, force: true });
  };
  const failure = started.find((result) => result.status === 'rejected');
  if (failure) {
    await stop();
    throw failure.reason;
  }
  const deadline = Date.now() + SERVER_READY_MS;
  const restartStuck = leaderlessRestarter(servers);
  while (!(await Promise.all(servers.map((s) => httpStatus(`${s.monitorUrl}/healthz`).catch(() => 0)))).every((status) => status === 200)) {
    await restartStuck();
    if (Date.now() > deadline) {
      const logs = natsServerLogs(servers);
      await stop();
      throw new Error(`the ${size}-server NATS cluster had no JetStream within ${SERVER_READY_MS} ms\n${logs}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { servers, stop };
}
