import { Inject, Injectable } from '@nestjs/common';
import { ServiceFailure, type TaskWork } from '@transmute/contracts';
import { withByteCeiling, createGcsClient, gcsFailure, gcsTargetOf } from '@transmute/connectors';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { STORAGE, type Storage, storageKey } from '@transmute/storage';
import type { ImporterConfig } from '../config';
import { type ImportSource, type ImportedFile, baseName, fallbackFilename } from './source';

/** import/googlecloud: one object (`key`, or `path`), streamed into storage. */
@Injectable()
export class GcsSource implements ImportSource {
  readonly operation = 'import/googlecloud';

  constructor(
    @Inject(STORAGE) private readonly storage: Storage,
    @Inject(SERVICE_CONFIG) private readonly config: ImporterConfig,
  ) {}

  async import(work: TaskWork): Promise<ImportedFile> {
    if (!work.spec) throw ServiceFailure.validation(`task ${work.taskName} has no spec`);
    const target = gcsTargetOf(work.spec, { keyRequired: true });
    const bucket = createGcsClient(target, { apiEndpoint: this.config.gcsApiEndpoint }).bucket(target.bucket);
    try {
      const file = bucket.file(target.key);
      // Asked first: a missing object or an unreachable endpoint then fails as a promise, not as a stream event.
      await file.getMetadata();
      const filename = work.spec.filename || baseName(target.key) || fallbackFilename(work);
      const key = storageKey('jobs', work.jobId, work.taskName, filename);
      const stored = await this.storage.put(key, withByteCeiling(file.createReadStream(), this.config.maxImportBytes, `Google Cloud Storage object ${target.key}`));
      return { key, filename, size: stored.size };
    } catch (error) {
      throw await gcsFailure(error, target, target.key, async () => (await bucket.exists())[0]);
    }
  }
}
