import { Inject, Injectable } from '@nestjs/common';
import type { TaskResult, TaskWork } from '@transmute/contracts';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { DownloadLinks } from '@transmute/storage';
import type { ExporterConfig } from '../config';
import type { ExportDestination } from './destination';

/**
 * export/url: a download link per file, signed, valid for the retention
 * period. The orchestrator now answers these itself when the inputs finish;
 * this serves work an older orchestrator published during a rolling upgrade.
 */
@Injectable()
export class UrlDestination implements ExportDestination {
  readonly operation = 'export/url';
  private readonly links: DownloadLinks;

  constructor(@Inject(SERVICE_CONFIG) config: ExporterConfig) {
    this.links = new DownloadLinks(config);
  }

  async export(work: TaskWork): Promise<TaskResult> {
    return this.links.exportResult(work.taskName, work.inputs, work.accountId);
  }
}
