import type { StartedTestContainer } from 'testcontainers';
import type { InfraProvider, InfraStartOptions, RunningInfra } from './infra-provider';

const NATS_IMAGE = 'nats:2.10';
const FERRETDB_IMAGE = 'ghcr.io/ferretdb/ferretdb:1.24';
const NATS_CLIENT_PORT = 4222;
const MONGODB_PORT = 27017;

/**
 * The same infrastructure from container images, for machines with a Docker
 * engine (TEST_INFRA=containers). State lives inside the containers and goes
 * with them, so `dataDir` is ignored.
 */
export class ContainersInfraProvider implements InfraProvider {
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
      const nats = await new GenericContainer(NATS_IMAGE)
        .withCommand(['-js'])
        .withExposedPorts(NATS_CLIENT_PORT)
        .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
        .start();
      started.push(nats);

      const ferretdb = await new GenericContainer(FERRETDB_IMAGE)
        .withEnvironment({ FERRETDB_HANDLER: 'sqlite', FERRETDB_TELEMETRY: 'disable' })
        .withExposedPorts(MONGODB_PORT)
        .withWaitStrategy(Wait.forListeningPorts())
        .start();
      started.push(ferretdb);

      return {
        natsUrl: `nats://${nats.getHost()}:${nats.getMappedPort(NATS_CLIENT_PORT)}`,
        mongoUri: `mongodb://${ferretdb.getHost()}:${ferretdb.getMappedPort(MONGODB_PORT)}/`,
        // A restarted container keeps its mapped ports only while Docker reuses them; good enough for fault tests.
        restart: async (which) => (which === 'nats' ? nats : ferretdb).restart(),
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
