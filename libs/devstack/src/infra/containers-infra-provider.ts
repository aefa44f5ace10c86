import type { StartedTestContainer } from 'testcontainers';
import type { InfraProvider, InfraStartOptions, RunningInfra } from './infra-provider';

/** Upstream images, pulled from their registries; TEST_INFRA_NATS_IMAGE / TEST_INFRA_FERRETDB_IMAGE name others. */
const DEFAULT_NATS_IMAGE = 'nats:2.15';
const DEFAULT_FERRETDB_IMAGE = 'ghcr.io/ferretdb/ferretdb:1.24';
const NATS_CLIENT_PORT = 4222;
/**
 * Every port both NATS images declare (clients, routes, monitoring) is
 * published, though only the client port is used: podman 4.3's Docker API
 * (Debian 12) lists declared but unpublished ports in HostConfig.PortBindings
 * with no binding, and testcontainers then waits forever for them to be bound
 * (fixed in podman 4.4, containers/podman#16818).
 */
const NATS_DECLARED_PORTS = [NATS_CLIENT_PORT, 6222, 8222];
const MONGODB_PORT = 27017;
/**
 * Below the hard limits of sandboxed hosts, where an engine's default (often
 * 1048576 open files) makes runc fail with "setrlimit ... operation not
 * permitted"; ample for test servers.
 */
const ULIMITS = { nofile: { soft: 1024, hard: 1024 }, nproc: { soft: 4096, hard: 4096 } };

export interface ContainerImages {
  nats: string;
  ferretdb: string;
}

/**
 * The images to run: the upstream ones, or those the environment names, such
 * as the transmute/nats and transmute/ferretdb images `make images` builds
 * (where no registry is reachable). Both kinds take the same command and log
 * the same ready lines.
 */
export function containerImages(env: NodeJS.ProcessEnv = process.env): ContainerImages {
  return { nats: env['TEST_INFRA_NATS_IMAGE'] || DEFAULT_NATS_IMAGE, ferretdb: env['TEST_INFRA_FERRETDB_IMAGE'] || DEFAULT_FERRETDB_IMAGE };
}

/**
 * The same infrastructure from container images, for machines with a Docker
 * engine or podman's Docker-compatible socket (TEST_INFRA=containers). State
 * lives inside the containers and goes with them, so `dataDir` is ignored.
 */
export class ContainersInfraProvider implements InfraProvider {
  constructor(private readonly images: ContainerImages = containerImages()) {}

  async start(_opts: InfraStartOptions = {}): Promise<RunningInfra> {
    // Loaded lazily: testcontainers pulls in dockerode and friends, which the
    // default local-process path never needs. require (not import()) because
    // this is CommonJS and jest would need ESM support for a dynamic import.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { GenericContainer, Wait } = require('testcontainers') as typeof import('testcontainers');

    const started: StartedTestContainer[] = [];
    const stop = async (): Promise<void> => {
      await Promise.all(started.splice(0).map((container) => container.stop()));
    };

    try {
      // The store directory is named: the upstream image runs as root, which can
      // create it anywhere; transmute/nats runs as a user that owns only /data.
      const nats = await new GenericContainer(this.images.nats)
        .withCommand(['-js', '--store_dir', '/data'])
        .withExposedPorts(...NATS_DECLARED_PORTS)
        .withUlimits(ULIMITS)
        .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
        .start();
      started.push(nats);

      // The environment configures the upstream image; transmute/ferretdb's
      // command already listens on all addresses with SQLite under /data. A log
      // line, not a port check: that check execs a shell, and transmute/ferretdb
      // has none.
      const ferretdb = await new GenericContainer(this.images.ferretdb)
        .withEnvironment({ FERRETDB_HANDLER: 'sqlite', FERRETDB_TELEMETRY: 'disable' })
        .withExposedPorts(MONGODB_PORT)
        .withUlimits(ULIMITS)
        .withWaitStrategy(Wait.forLogMessage(/Listening on TCP/))
        .start();
      started.push(ferretdb);

      return {
        natsUrl: `nats://${nats.getHost()}:${nats.getMappedPort(NATS_CLIENT_PORT)}`,
        mongoUri: `mongodb://${ferretdb.getHost()}:${ferretdb.getMappedPort(MONGODB_PORT)}/`,
        // A restarted container keeps its mapped ports only while Docker reuses them; good enough for fault tests.
        restart: async (which, { downMs = 0 } = {}) => {
          const container = which === 'nats' ? nats : ferretdb;
          if (downMs <= 0) return container.restart();
          await container.stop({ remove: false });
          await new Promise((resolve) => setTimeout(resolve, downMs));
          await container.restart();
        },
        // A stopped container would not come back on its mapped port: outages are the local infrastructure's.
        down: () => Promise.reject(new Error('down/up need TEST_INFRA=local (the default): a stopped container loses its mapped port')),
        up: () => Promise.reject(new Error('down/up need TEST_INFRA=local (the default): a stopped container loses its mapped port')),
        stop,
      };
    } catch (error) {
      await stop();
      throw error;
    }
  }
}
