import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import { Consumers, credentialKey, Streams, Subjects, type TaskSucceeded, TaskSucceededSchema, type TaskWork } from '@transmute/contracts';
import { type TaskContext, type TaskWorkRunner, TaskWorkers } from '@transmute/messaging';
import { OperationTable, withOpenedCredentials } from '@transmute/connectors';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { STORAGE, type Storage, importedFileFormat } from '@transmute/storage';
import type { ImporterConfig } from './config';
import { IMPORT_SOURCES, type ImportSource } from './sources/source';

/** Consumes `tasks.import` and hands each task to the source of its operation. */
@Injectable()
export class ImportWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly sources: OperationTable<ImportSource>;
  private runner?: TaskWorkRunner;
  private readonly credentialKey: Buffer;

  constructor(
    private readonly workers: TaskWorkers,
    @Inject(SERVICE_CONFIG) private readonly config: ImporterConfig,
    @Inject(IMPORT_SOURCES) sources: ImportSource[],
    @Inject(STORAGE) private readonly storage: Storage,
  ) {
    this.credentialKey = credentialKey(config.credentialsKey);
    this.sources = new OperationTable(sources, 'import sources');
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
    const file = await this.sources.for(work.spec?.operation ?? '').import(work, context);
    return create(TaskSucceededSchema, {
      file: {
        key: file.key,
        filename: file.filename,
        size: BigInt(file.size),
        format: await importedFileFormat({ inputFormat: work.inputFormat, filename: file.filename, key: file.key }, this.storage),
      },
    });
  }
}
