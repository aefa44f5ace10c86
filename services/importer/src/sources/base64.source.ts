import { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { ServiceFailure, type TaskWork } from '@transmute/contracts';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { STORAGE, type Storage, storageKey } from '@transmute/storage';
import type { ImporterConfig } from '../config';
import { decodeBase64File } from './base64';
import { type ImportSource, type ImportedFile, fallbackFilename } from './source';

@Injectable()
export class Base64Source implements ImportSource {
  readonly operation = 'import/base64';

  constructor(
    @Inject(STORAGE) private readonly storage: Storage,
    @Inject(SERVICE_CONFIG) private readonly config: ImporterConfig,
  ) {}

  async import(work: TaskWork): Promise<ImportedFile> {
    const bytes = decodeBase64File(work.spec?.file ?? '');
    if (bytes.length > this.config.maxBase64Bytes) {
      throw ServiceFailure.validation(`the base64 file of task ${work.taskName} is ${bytes.length} bytes; the limit is ${this.config.maxBase64Bytes}`);
    }
    const filename = work.spec?.filename || fallbackFilename(work);
    const key = storageKey('jobs', work.jobId, work.taskName, filename);
    const stored = await this.storage.put(key, Readable.from([bytes]));
    return { key, filename, size: stored.size };
  }
}
