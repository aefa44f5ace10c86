import { Inject, Injectable } from '@nestjs/common';
import { ServiceFailure, type TaskWork } from '@transmute/contracts';
import { withByteCeiling, connectSftp, sftpFailure, sftpTargetOf } from '@transmute/connectors';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { STORAGE, type Storage, storageKey } from '@transmute/storage';
import type { ImporterConfig } from '../config';
import { type ImportSource, type ImportedFile, baseName, fallbackFilename } from './source';

/** import/sftp: one remote file (`path`), streamed into storage. */
@Injectable()
export class SftpSource implements ImportSource {
  readonly operation = 'import/sftp';

  constructor(
    @Inject(STORAGE) private readonly storage: Storage,
    @Inject(SERVICE_CONFIG) private readonly config: ImporterConfig,
  ) {}

  async import(work: TaskWork): Promise<ImportedFile> {
    if (!work.spec) throw ServiceFailure.validation(`task ${work.taskName} has no spec`);
    const target = sftpTargetOf(work.spec, { pathRequired: true });
    const client = await connectSftp(target, this.config, this.config.connectTimeoutMs).catch((error: unknown) => {
      throw sftpFailure(error, target, target.path);
    });
    try {
      // stat first: a missing file then fails with its own message rather than an empty stream.
      const info = await client.stat(target.path);
      if (!info.isFile) throw ServiceFailure.validation(`SFTP ${target.host}:${target.port} ${target.path} is not a file`);
      const filename = work.spec.filename || baseName(target.path) || fallbackFilename(work);
      const key = storageKey('jobs', work.jobId, work.taskName, filename);
      const remote = client.createReadStream(target.path);
      const stored = await this.storage.put(key, withByteCeiling(remote, this.config.maxImportBytes, `SFTP file ${target.path}`));
      return { key, filename, size: stored.size };
    } catch (error) {
      throw sftpFailure(error, target, target.path);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
