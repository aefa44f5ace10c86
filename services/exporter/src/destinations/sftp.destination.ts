import { posix } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import { ServiceFailure, type TaskResult, TaskResultSchema, type TaskWork } from '@transmute/contracts';
import { connectSftp, sftpFailure, sftpTargetOf } from '@transmute/connectors';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { STORAGE, type Storage } from '@transmute/storage';
import type { ExporterConfig } from '../config';
import type { ExportDestination } from './destination';
import { filesToExport } from './export-files';

/** export/sftp: each result streamed into the directory `path` (default: the login directory). */
@Injectable()
export class SftpDestination implements ExportDestination {
  readonly operation = 'export/sftp';

  constructor(
    @Inject(STORAGE) private readonly storage: Storage,
    @Inject(SERVICE_CONFIG) private readonly config: ExporterConfig,
  ) {}

  async export(work: TaskWork): Promise<TaskResult> {
    if (!work.spec) throw ServiceFailure.validation(`task ${work.taskName} has no spec`);
    const target = sftpTargetOf(work.spec, { pathRequired: false });
    const files = filesToExport(work);
    const directory = target.path || '.';
    const client = await connectSftp(target, this.config, this.config.connectTimeoutMs).catch((error: unknown) => {
      throw sftpFailure(error, target, directory);
    });
    try {
      if (directory !== '.' && !(await client.exists(directory))) await client.mkdir(directory, true);
      for (const { file, filename } of files) {
        const remote = posix.join(directory, filename);
        await client.put(await this.storage.get(file.key), remote);
      }
    } catch (error) {
      throw sftpFailure(error, target, directory);
    } finally {
      await client.end().catch(() => undefined);
    }
    // Only the name: `files` entries are download links (export/url), and a cloud export hands out none.
    return create(TaskResultSchema, { filename: files[0]!.filename });
  }
}
