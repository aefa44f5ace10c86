import { create } from '@bufbuild/protobuf';
import { ServiceFailure, type TaskResult, TaskResultSchema } from '@transmute/contracts';
import { DownloadTokens } from './download-tokens';

/** The service settings links are made from, named as in every service's config. */
export interface DownloadLinkSettings {
  /** The key the gateway checks tokens with (TRANSMUTE_DOWNLOAD_TOKEN_KEY). */
  downloadTokenKey: string;
  /** The gateway's public base URL. */
  publicUrl: string;
  /** Links live as long as the files they name. */
  fileRetentionSeconds: number;
}

/** A stored file a link is made for. */
export interface LinkedFile {
  key: string;
  filename: string;
}

/**
 * Signed `/v1/download/<token>` links, valid for the retention period:
 * a convert's `download_url`, and everything an `export/url` task answers.
 */
export class DownloadLinks {
  private readonly tokens: DownloadTokens;

  constructor(private readonly settings: DownloadLinkSettings) {
    this.tokens = new DownloadTokens(settings.downloadTokenKey);
  }

  link(file: LinkedFile, accountId: string, nowMs = Date.now()): string {
    const expiresAtUnix = BigInt(Math.floor(nowMs / 1000) + this.settings.fileRetentionSeconds);
    return `${this.settings.publicUrl}/v1/download/${this.tokens.mint({ key: file.key, filename: file.filename, accountId, expiresAtUnix })}`;
  }

  /** An export/url task's result: a link per file, `url` and `filename` repeating the first. */
  exportResult(taskName: string, files: readonly LinkedFile[], accountId: string, nowMs = Date.now()): TaskResult {
    if (files.length === 0) throw ServiceFailure.validation(`export task ${taskName} has no file to export`);
    const links = files.map((file) => ({ url: this.link(file, accountId, nowMs), filename: file.filename }));
    return create(TaskResultSchema, { url: links[0]!.url, filename: links[0]!.filename, files: links });
  }
}
