/** NATS (JetStream) and a MongoDB-wire store, however they were started. */
export interface RunningInfra {
  /** e.g. nats://127.0.0.1:PORT */
  natsUrl: string;
  /** e.g. mongodb://127.0.0.1:PORT/ (no database name: callers append their own). */
  mongoUri: string;
  /**
   * Kills one component (SIGKILL: no chance to flush or say goodbye) and
   * starts it again on the same port with the same data, resolving once it
   * listens. For fault-injection runs (`pnpm chaos`); the local provider
   * supports it, the containers provider refuses.
   */
  restart(component: InfraComponent): Promise<void>;
  /** Stops everything start() started. Safe to call more than once. */
  stop(): Promise<void>;
}

export type InfraComponent = 'nats' | 'store';

export interface InfraStartOptions {
  /** Where state lives; kept after stop(). Without it, a fresh temporary folder is used and removed on stop(). */
  dataDir?: string;
}

export interface InfraProvider {
  start(opts?: InfraStartOptions): Promise<RunningInfra>;
}
