import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import { Consumers, ServiceFailure, credentialKey, Streams, Subjects, type TaskSucceeded, TaskSucceededSchema, type TaskWork } from '@transmute/contracts';
import { type TaskContext, type TaskWorkRunner, TaskWorkers } from '@transmute/messaging';
import { withOpenedCredentials } from '@transmute/connectors';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { STORAGE, type Storage } from '@transmute/storage';
import { reportedFormat } from './reported-format';
import type { ImporterConfig } from './config';
import { IMPORT_SOURCES, type ImportSource } from './sources/source';

/** Consumes `tasks.import` and hands each task to the source of its operation. */
@Injectable()
export class ImportWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly sources: Map<string, ImportSource>;
  private runner?: TaskWorkRunner;
  private readonly credentialKey: Buffer;

  constructor(
    private readonly workers: TaskWorkers,
    @Inject(SERVICE_CONFIG) private readonly config: ImporterConfig,
    @Inject(IMPORT_SOURCES) sources: ImportSource[],
    @Inject(STORAGE) private readonly storage: Storage,
  ) {
    this.credentialKey = credentialKey(config.credentialsKey);
    this.sources = new Map();
    for (const source of sources) {
      if (this.sources.has(source.operation)) throw new Error(`two import sources serve ${source.operation}`);
      this.sources.set(source.operation, source);
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    this.runner = await this.workers.start({
      stream: Streams.tasks,
      durable: Consumers.importer,
      filterSubject: Subjects.tasksImport,
      config: this.config,
      handler: (work, context) => this.handle(work, context),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.runner?.stop(this.config.shutdownGraceMs);
  }

  private async handle(sealed: TaskWork, context: TaskContext): Promise<TaskSucceeded> {
    const work = withOpenedCredentials(sealed, this.credentialKey);
    const operation = work.spec?.operation ?? '';
    const source = this.sources.get(operation);
    if (!source) throw ServiceFailure.validation(`${operation} is not supported by this installation`);
    const file = await source.import(work, context);
    return create(TaskSucceededSchema, {
      file: { key: file.key, filename: file.filename, size: BigInt(file.size), format: await reportedFormat(work, file, this.storage) },
    });
  }
}
