import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts, LOOPBACK } from '../net/free-ports';
import { waitForTcp } from '../net/wait-for-tcp';
import { ManagedProcess, type SpawnOptions } from '../process/managed-process';
import type { InfraProvider, InfraService, InfraStartOptions, RunningInfra } from './infra-provider';
import { defaultToolsBin, requireTool } from './local-tools';

const READY_TIMEOUT_MS = 20_000;
const STOP_GRACE_MS = 5_000;

export interface LocalProcessInfraOptions {
  /** Folder holding nats-server and ferretdb; defaults to <repo>/.tools/bin. */
  toolsBin?: string;
}

/**
 * Runs nats-server and ferretdb (see ferretdb-launcher/) as child processes on
 * free loopback ports. Needs no container engine, which is why it is the
 * default for `make up` and the tests.
 */
export class LocalProcessInfraProvider implements InfraProvider {
  private readonly toolsBin: string;

  constructor(options: LocalProcessInfraOptions = {}) {
    this.toolsBin = options.toolsBin ?? defaultToolsBin();
  }

  async start(opts: InfraStartOptions = {}): Promise<RunningInfra> {
    const natsServer = requireTool(this.toolsBin, 'nats-server');
    const ferretdb = requireTool(this.toolsBin, 'ferretdb');
    const ownsDataDir = opts.dataDir === undefined;
    const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'transmute-infra-')));
    await mkdir(dataDir, { recursive: true });
    const [natsPort, mongoPort] = (await freePorts(2)) as [number, number];

    const natsOptions: SpawnOptions = {
      name: 'nats-server',
      command: natsServer,
      // No -m: the monitoring endpoint is not needed and would be one more port.
      args: ['-js', '-a', LOOPBACK, '-p', String(natsPort), '-sd', join(dataDir, 'nats')],
      output: { kind: 'tail-only' },
    };
    const ferretOptions: SpawnOptions = {
      name: 'ferretdb',
      command: ferretdb,
      args: ['--listen-addr', `${LOOPBACK}:${mongoPort}`, '--sqlite-dir', join(dataDir, 'ferretdb')],
      output: { kind: 'tail-only' },
    };
    const nats = { port: natsPort, options: natsOptions, managed: new ManagedProcess(natsOptions) };
    const ferret = { port: mongoPort, options: ferretOptions, managed: new ManagedProcess(ferretOptions) };
    const started = [nats, ferret];
    const services: Record<InfraService, (typeof started)[number]> = { nats, store: ferret };

    const down = async (which: InfraService): Promise<void> => {
      const service = services[which];
      service.managed.signal('SIGKILL');
      await service.managed.exited;
    };
    const up = async (which: InfraService): Promise<void> => {
      const service = services[which];
      if (!service.managed.hasExited) throw new Error(`${service.managed.name} is already running`);
      service.managed = new ManagedProcess(service.options);
      await waitUntilListening(service.managed, service.port);
    };
    const restart = async (which: InfraService, { downMs = 0 } = {}): Promise<void> => {
      await down(which);
      if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
      await up(which);
    };

    let stopping: Promise<void> | undefined;
    const stop = (): Promise<void> =>
      (stopping ??= (async () => {
        await Promise.all(started.map(({ managed }) => managed.stop(STOP_GRACE_MS)));
        if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
      })());

    try {
      await Promise.all(started.map(({ managed, port }) => waitUntilListening(managed, port)));
    } catch (error) {
      await stop();
      throw error;
    }

    return {
      natsUrl: `nats://${LOOPBACK}:${natsPort}`,
      mongoUri: `mongodb://${LOOPBACK}:${mongoPort}/`,
      restart,
      down,
      up,
      stop,
    };
  }
}

async function waitUntilListening(managed: ManagedProcess, port: number): Promise<void> {
  try {
    await waitForTcp(port, { timeoutMs: READY_TIMEOUT_MS, check: () => managed.assertRunning() });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${managed.name} did not start on ${LOOPBACK}:${port}: ${reason}\n${managed.name} output:\n${managed.outputTail(20)}`, {
      cause: error,
    });
  }
}
