import { Inject, Injectable } from '@nestjs/common';
import { ServiceFailure, type TaskWork } from '@transmute/contracts';
import { STORAGE, type Storage } from '@transmute/storage';
import { type ImportSource, type ImportedFile, fallbackFilename } from './source';

/** The client already put the bytes at the signed URL: check they are there and describe them. */
@Injectable()
export class UploadSource implements ImportSource {
  readonly operation = 'import/upload';

  constructor(@Inject(STORAGE) private readonly storage: Storage) {}

  async import(work: TaskWork): Promise<ImportedFile> {
    const stored = await this.storage.stat(work.uploadKey);
    if (!stored) throw ServiceFailure.validation(`no file was uploaded for task ${work.taskName}`);
    return { key: work.uploadKey, filename: work.spec?.filename || fallbackFilename(work), size: stored.size };
  }
}
