import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import { Consumers, credentialKey, Streams, Subjects, type TaskSucceeded, TaskSucceededSchema, type TaskWork } from '@transmute/contracts';
import { type TaskContext, type TaskWorkRunner, TaskWorkers } from '@transmute/messaging';
import { OperationTable, withOpenedCredentials } from '@transmute/connectors';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { ExporterConfig } from './config';
import { EXPORT_DESTINATIONS, type ExportDestination } from './destinations/destination';

/** Consumes `tasks.export` and hands each task to the destination of its operation. */
@Injectable()
export class ExportWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly destinations: OperationTable<ExportDestination>;
  private runner?: TaskWorkRunner;
  private readonly credentialKey: Buffer;

  constructor(
    private readonly workers: TaskWorkers,
    @Inject(SERVICE_CONFIG) private readonly config: ExporterConfig,
    @Inject(EXPORT_DESTINATIONS) destinations: ExportDestination[],
  ) {
    this.credentialKey = credentialKey(config.credentialsKey);
    this.destinations = new OperationTable(destinations, 'export destinations');
  }

  async onApplicationBootstrap(): Promise<void> {
    this.runner = await this.workers.start({
      stream: Streams.tasks,
      durable: Consumers.exporter,
      filterSubject: Subjects.tasksExport,
      config: this.config,
      handler: (work, context) => this.handle(work, context),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.runner?.stop(this.config.shutdownGraceMs);
  }

  private async handle(sealed: TaskWork, context: TaskContext): Promise<TaskSucceeded> {
    const work = withOpenedCredentials(sealed, this.credentialKey);
    const destination = this.destinations.for(work.spec?.operation ?? '');
    return create(TaskSucceededSchema, { result: await destination.export(work, context) });
  }
}
