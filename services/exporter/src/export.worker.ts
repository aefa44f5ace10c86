import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import { Consumers, ServiceFailure, Streams, Subjects, type TaskSucceeded, TaskSucceededSchema, type TaskWork } from '@transmute/contracts';
import { type TaskWorkRunner, TaskWorkers } from '@transmute/messaging';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { ExporterConfig } from './config';
import type { ExportDestination } from './destinations/destination';
import { UrlDestination } from './destinations/url.destination';

/** Consumes `tasks.export` and hands each task to the destination of its operation. */
@Injectable()
export class ExportWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly destinations: Map<string, ExportDestination>;
  private runner?: TaskWorkRunner;

  constructor(
    private readonly workers: TaskWorkers,
    @Inject(SERVICE_CONFIG) private readonly config: ExporterConfig,
    url: UrlDestination,
  ) {
    this.destinations = new Map([url].map((destination) => [destination.operation, destination]));
  }

  async onApplicationBootstrap(): Promise<void> {
    this.runner = await this.workers.start({
      stream: Streams.tasks,
      durable: Consumers.exporter,
      filterSubject: Subjects.tasksExport,
      config: this.config,
      handler: (work) => this.handle(work),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.runner?.stop(this.config.shutdownGraceMs);
  }

  private async handle(work: TaskWork): Promise<TaskSucceeded> {
    const operation = work.spec?.operation ?? '';
    const destination = this.destinations.get(operation);
    if (!destination) throw ServiceFailure.validation(`${operation} is not supported by this installation yet`);
    return create(TaskSucceededSchema, { result: await destination.export(work) });
  }
}
