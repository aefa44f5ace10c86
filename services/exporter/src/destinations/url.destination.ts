import { Inject, Injectable } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import { ServiceFailure, type TaskResult, TaskResultSchema, type TaskWork } from '@transmute/contracts';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { DownloadTokens } from '@transmute/storage';
import type { ExporterConfig } from '../config';
import type { ExportDestination } from './destination';

/** export/url: a download link per file, signed, valid for the retention period. */
@Injectable()
export class UrlDestination implements ExportDestination {
  readonly operation = 'export/url';
  private readonly tokens: DownloadTokens;

  constructor(@Inject(SERVICE_CONFIG) private readonly config: ExporterConfig) {
    this.tokens = new DownloadTokens(config.downloadTokenKey);
  }

  async export(work: TaskWork): Promise<TaskResult> {
    if (work.inputs.length === 0) throw ServiceFailure.validation(`export task ${work.taskName} has no file to export`);
    const expiresAtUnix = BigInt(Math.floor(Date.now() / 1000) + this.config.fileRetentionSeconds);
    const files = work.inputs.map((file) => ({
      url: `${this.config.publicUrl}/v1/download/${this.tokens.mint({ key: file.key, filename: file.filename, accountId: work.accountId, expiresAtUnix })}`,
      filename: file.filename,
    }));
    const [first] = files;
    return create(TaskResultSchema, { url: first!.url, filename: first!.filename, files });
  }
}
