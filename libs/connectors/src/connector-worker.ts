import { Streams, type TaskSucceeded, type TaskWork, credentialKey } from '@transmute/contracts';
import type { TaskContext, TaskWorkRunner, TaskWorkers, WorkerConfig } from '@transmute/messaging';
import { OperationTable } from './operation-table';
import { withOpenedCredentials } from './task-credentials';

/** The variables a connector worker reads: its pool's, the credentials key, the shutdown grace. */
export type ConnectorWorkerConfig = WorkerConfig & { credentialsKey: string; shutdownGraceMs: number };

export interface ConnectorWorkerOptions<Connector> {
  /** The durable consumer on the tasks stream and the subject it takes (`Consumers.importer`, `Subjects.tasksImport`). */
  durable: string;
  filterSubject: string;
  /** What the connectors are called in a start-up error, e.g. `import sources`. */
  kind: string;
  connectors: readonly Connector[];
  config: ConnectorWorkerConfig;
  /** Runs one task, its credentials opened, on the connector that serves its operation. */
  run(connector: Connector, work: TaskWork, context: TaskContext): Promise<TaskSucceeded>;
}

/**
 * The task worker of a service that connects to client-given places
 * (importer, exporter): takes its tasks from the tasks stream, opens each
 * task's sealed credentials and hands it to the connector of its operation.
 * The service's worker starts it once the app is up and stops it before
 * shutdown.
 */
export class ConnectorWorker<Connector extends { readonly operation: string }> {
  private readonly credentialKey: Buffer;
  private readonly connectors: OperationTable<Connector>;
  private runner?: TaskWorkRunner;

  constructor(
    private readonly workers: TaskWorkers,
    private readonly options: ConnectorWorkerOptions<Connector>,
  ) {
    this.credentialKey = credentialKey(options.config.credentialsKey);
    this.connectors = new OperationTable(options.connectors, options.kind);
  }

  async start(): Promise<void> {
    const { durable, filterSubject, config } = this.options;
    this.runner = await this.workers.start({ stream: Streams.tasks, durable, filterSubject, config, handler: (work, context) => this.handle(work, context) });
  }

  /** Stops taking tasks; running ones get the shutdown grace to finish, else go back for redelivery. */
  async stop(): Promise<void> {
    await this.runner?.stop(this.options.config.shutdownGraceMs);
  }

  private async handle(sealed: TaskWork, context: TaskContext): Promise<TaskSucceeded> {
    const work = withOpenedCredentials(sealed, this.credentialKey);
    return this.options.run(this.connectors.for(work.spec?.operation ?? ''), work, context);
  }
}
