import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import { Consumers, Subjects, TaskSucceededSchema } from '@transmute/contracts';
import { TaskWorkers } from '@transmute/messaging';
import { ConnectorWorker } from '@transmute/connectors';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { ExporterConfig } from './config';
import { EXPORT_DESTINATIONS, type ExportDestination } from './destinations/destination';

/** Consumes `tasks.export` and hands each task to the destination of its operation. */
@Injectable()
export class ExportWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly worker: ConnectorWorker<ExportDestination>;

  constructor(workers: TaskWorkers, @Inject(SERVICE_CONFIG) config: ExporterConfig, @Inject(EXPORT_DESTINATIONS) destinations: ExportDestination[]) {
    this.worker = new ConnectorWorker(workers, {
      durable: Consumers.exporter,
      filterSubject: Subjects.tasksExport,
      kind: 'export destinations',
      connectors: destinations,
      config,
      run: async (destination, work, context) => create(TaskSucceededSchema, { result: await destination.export(work, context) }),
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.worker.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.worker.stop();
  }
}
