import { Upload } from '@aws-sdk/lib-storage';
import { Inject, Injectable } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import { ServiceFailure, type TaskResult, TaskResultSchema, type TaskWork } from '@transmute/contracts';
import type { TaskContext } from '@transmute/messaging';
import { createS3Client, exportLocation, s3Failure, s3TargetOf, GUARDED_AGENTS } from '@transmute/connectors';
import type { GuardedAgents } from '@transmute/net-guard';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { STORAGE, type Storage } from '@transmute/storage';
import type { ExporterConfig } from '../config';
import type { ExportDestination } from './destination';
import { filesToExport } from './export-files';

/** Parts of a multipart upload: S3's minimum is 5 MiB; two in flight bound the memory a transfer holds. */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

/** export/s3: each result streamed to the bucket; multipart past one part, so size is not bounded by memory. */
@Injectable()
export class S3Destination implements ExportDestination {
  readonly operation = 'export/s3';

  constructor(
    @Inject(STORAGE) private readonly storage: Storage,
    @Inject(SERVICE_CONFIG) private readonly config: ExporterConfig,
    @Inject(GUARDED_AGENTS) private readonly agents: GuardedAgents,
  ) {}

  async export(work: TaskWork, context: TaskContext): Promise<TaskResult> {
    if (!work.spec) throw ServiceFailure.validation(`task ${work.taskName} has no spec`);
    const target = s3TargetOf(work.spec, { keyRequired: false });
    const files = filesToExport(work);
    const client = createS3Client(target, this.agents, this.config, { connectTimeoutMs: this.config.connectTimeoutMs, idleTimeoutMs: this.config.idleTimeoutMs });
    try {
      for (const { file, filename } of files) {
        const key = exportLocation(target.key, filename, files.length);
        try {
          const upload = new Upload({
            client,
            params: { Bucket: target.bucket, Key: key, Body: await this.storage.get(file.key) },
            partSize: PART_BYTES,
            queueSize: PARTS_IN_FLIGHT,
            leavePartsOnError: false,
          });
          const abort = () => void upload.abort();
          context.signal.addEventListener('abort', abort, { once: true });
          try {
            await upload.done();
          } finally {
            context.signal.removeEventListener('abort', abort);
          }
        } catch (error) {
          throw s3Failure(error, target, key);
        }
      }
    } finally {
      client.destroy();
    }
    // Only the name: `files` entries are download links (export/url), and a cloud export hands out none.
    return create(TaskResultSchema, { filename: files[0]!.filename });
  }
}
