import { pipeline } from 'node:stream/promises';
import { Inject, Injectable } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import { ServiceFailure, type TaskResult, TaskResultSchema, type TaskWork } from '@transmute/contracts';
import { createGcsClient, exportLocation, gcsFailure, gcsTargetOf } from '@transmute/connectors';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { STORAGE, type Storage } from '@transmute/storage';
import type { ExporterConfig } from '../config';
import type { ExportDestination } from './destination';
import { filesToExport } from './export-files';

/** export/googlecloud: each result streamed to the bucket (a resumable upload, so size is not bounded by memory). */
@Injectable()
export class GcsDestination implements ExportDestination {
  readonly operation = 'export/googlecloud';

  constructor(
    @Inject(STORAGE) private readonly storage: Storage,
    @Inject(SERVICE_CONFIG) private readonly config: ExporterConfig,
  ) {}

  async export(work: TaskWork): Promise<TaskResult> {
    if (!work.spec) throw ServiceFailure.validation(`task ${work.taskName} has no spec`);
    const target = gcsTargetOf(work.spec, { keyRequired: false });
    const files = filesToExport(work);
    const bucket = createGcsClient(target, { apiEndpoint: this.config.gcsApiEndpoint }).bucket(target.bucket);
    for (const { file, filename } of files) {
      const key = exportLocation(target.key, filename, files.length);
      try {
        await pipeline(await this.storage.get(file.key), bucket.file(key).createWriteStream());
      } catch (error) {
        throw await gcsFailure(error, target, key, async () => (await bucket.exists())[0]);
      }
    }
    // Only the name: `files` entries are download links (export/url), and a cloud export hands out none.
    return create(TaskResultSchema, { filename: files[0]!.filename });
  }
}
