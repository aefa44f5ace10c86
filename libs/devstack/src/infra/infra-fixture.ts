import { type ConnectionOptions, type NatsConnection, connect } from 'nats';
import { createInfraProvider } from './create-infra-provider';
import type { RunningInfra } from './infra-provider';

/** The two jest globals used here, typed locally so the build needs no jest types. */
interface JestHooks {
  beforeAll(fn: () => Promise<void>): void;
  afterAll(fn: () => Promise<void>): void;
}

/** The running infra of a spec file and one NATS connection to it; read them in hooks and tests, not at load time. */
export interface InfraFixture {
  readonly infra: RunningInfra;
  readonly nc: NatsConnection;
}

/**
 * Starts NATS and the store once for the spec file (beforeAll) and connects
 * to that NATS; afterAll closes the connection, then stops the infra. Call it
 * before the hooks that use it: jest runs a block's hooks in the order they
 * were registered, afterAll ones too, so an afterAll that needs the connection
 * open goes above this call. `connectOptions` go to connect() beside the
 * server, e.g. reconnect settings for a spec that restarts NATS.
 */
export function infraFixture(connectOptions: Omit<ConnectionOptions, 'servers'> = {}): InfraFixture {
  const hooks = globalThis as unknown as JestHooks;
  let infra: RunningInfra | undefined;
  let nc: NatsConnection | undefined;

  hooks.beforeAll(async () => {
    infra = await createInfraProvider().start();
    nc = await connect({ ...connectOptions, servers: infra.natsUrl });
  });
  hooks.afterAll(async () => {
    await nc?.close();
    await infra?.stop();
  });

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the infra of this spec file is not running: read it in a hook or a test, after its beforeAll');
    return value;
  };
  return {
    get infra() {
      return started(infra);
    },
    get nc() {
      return started(nc);
    },
  };
}
