import { Readable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { Inject, Injectable } from '@nestjs/common';
import { ServiceFailure, type TaskWork } from '@transmute/contracts';
import type { TaskContext } from '@transmute/messaging';
import { withByteCeiling, createS3Client, s3Failure, s3TargetOf, GUARDED_AGENTS } from '@transmute/connectors';
import type { GuardedAgents } from '@transmute/net-guard';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { STORAGE, type Storage, storageKey } from '@transmute/storage';
import type { ImporterConfig } from '../config';
import { type ImportSource, type ImportedFile, baseName, fallbackFilename } from './source';

/** import/s3: one object, streamed from the bucket into storage. */
@Injectable()
export class S3Source implements ImportSource {
  readonly operation = 'import/s3';

  constructor(
    @Inject(STORAGE) private readonly storage: Storage,
    @Inject(SERVICE_CONFIG) private readonly config: ImporterConfig,
    @Inject(GUARDED_AGENTS) private readonly agents: GuardedAgents,
  ) {}

  async import(work: TaskWork, context: TaskContext): Promise<ImportedFile> {
    if (!work.spec) throw ServiceFailure.validation(`task ${work.taskName} has no spec`);
    const target = s3TargetOf(work.spec, { keyRequired: true });
    const client = createS3Client(target, this.agents, this.config, { connectTimeoutMs: this.config.connectTimeoutMs, idleTimeoutMs: this.config.idleTimeoutMs });
    try {
      const object = await client.send(new GetObjectCommand({ Bucket: target.bucket, Key: target.key }), { abortSignal: context.signal });
      if (!(object.Body instanceof Readable)) throw ServiceFailure.unavailable('the S3 answer had no body');
      const filename = work.spec.filename || baseName(target.key) || fallbackFilename(work);
      const key = storageKey('jobs', work.jobId, work.taskName, filename);
      const stored = await this.storage.put(key, withByteCeiling(object.Body, this.config.maxImportBytes, `S3 object ${target.key}`));
      return { key, filename, size: stored.size };
    } catch (error) {
      throw s3Failure(error, target, target.key);
    } finally {
      client.destroy();
    }
  }
}
