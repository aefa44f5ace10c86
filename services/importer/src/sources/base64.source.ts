import { Inject, Injectable } from '@nestjs/common';
import { ServiceFailure, type TaskWork } from '@transmute/contracts';
import { STORAGE, type Storage } from '@transmute/storage';
import { type ImportSource, type ImportedFile, fallbackFilename } from './source';

/**
 * import/base64: the gateway decoded, checked and stored the bytes at creation
 * (`stored_key`), so the content never rides in a NATS message; describe them.
 */
@Injectable()
export class Base64Source implements ImportSource {
  readonly operation = 'import/base64';

  constructor(@Inject(STORAGE) private readonly storage: Storage) {}

  async import(work: TaskWork): Promise<ImportedFile> {
    const key = work.spec?.storedKey ?? '';
    const stored = key ? await this.storage.stat(key) : null;
    if (!stored) throw ServiceFailure.validation(`the base64 file of task ${work.taskName} was not stored at creation`);
    return { key, filename: work.spec?.filename || fallbackFilename(work), size: stored.size };
  }
}
