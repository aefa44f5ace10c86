/** NATS (JetStream) and a MongoDB-wire store, however they were started. */
export interface RunningInfra {
  /** e.g. nats://127.0.0.1:PORT */
  natsUrl: string;
  /** e.g. mongodb://127.0.0.1:PORT/ (no database name: callers append their own). */
  mongoUri: string;
  /**
   * Kills one of them (SIGKILL, like a crashed pod) and starts it again on the
   * same address with the same data, after `downMs` (default 0); resolves once
   * it listens again.
   */
  restart(which: InfraService, options?: { downMs?: number }): Promise<void>;
  /**
   * Kills one of them and leaves it down (an outage a test can observe);
   * `up` starts it again on the same address with the same data.
   */
  down(which: InfraService): Promise<void>;
  up(which: InfraService): Promise<void>;
  /** Stops everything start() started. Safe to call more than once. */
  stop(): Promise<void>;
}

export type InfraService = 'nats' | 'store';

export interface InfraStartOptions {
  /** Where state lives; kept after stop(). Without it, a fresh temporary folder is used and removed on stop(). */
  dataDir?: string;
}

export interface InfraProvider {
  start(opts?: InfraStartOptions): Promise<RunningInfra>;
}
