import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import { Consumers, Subjects, TaskSucceededSchema } from '@transmute/contracts';
import { TaskWorkers } from '@transmute/messaging';
import { ConnectorWorker } from '@transmute/connectors';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { STORAGE, type Storage, importedFileFormat } from '@transmute/storage';
import type { ImporterConfig } from './config';
import { IMPORT_SOURCES, type ImportSource } from './sources/source';

/** Consumes `tasks.import` and hands each task to the source of its operation. */
@Injectable()
export class ImportWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly worker: ConnectorWorker<ImportSource>;

  constructor(
    workers: TaskWorkers,
    @Inject(SERVICE_CONFIG) config: ImporterConfig,
    @Inject(IMPORT_SOURCES) sources: ImportSource[],
    @Inject(STORAGE) private readonly storage: Storage,
  ) {
    this.worker = new ConnectorWorker(workers, {
      durable: Consumers.importer,
      filterSubject: Subjects.tasksImport,
      kind: 'import sources',
      connectors: sources,
      config,
      run: async (source, work, context) => {
        const file = await source.import(work, context);
        return create(TaskSucceededSchema, {
          file: {
            key: file.key,
            filename: file.filename,
            size: BigInt(file.size),
            format: await importedFileFormat({ inputFormat: work.inputFormat, filename: file.filename, key: file.key }, this.storage),
          },
        });
      },
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.worker.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.worker.stop();
  }
}
