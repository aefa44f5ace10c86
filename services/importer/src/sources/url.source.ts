import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, ServiceFailure, type TaskWork } from '@transmute/contracts';
import type { TaskContext } from '@transmute/messaging';
import { importCeilingExceeded, networkFailure, GUARDED_AGENTS } from '@transmute/connectors';
import { BodyTooLargeError, type GuardedAgents, describeUrl, fetchPublic } from '@transmute/net-guard';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { STORAGE, type Storage, storageKey } from '@transmute/storage';
import type { ImporterConfig } from '../config';
import { filenameFromContentDisposition } from './content-disposition';
import { type ImportSource, type ImportedFile, baseName, fallbackFilename } from './source';

/**
 * import/url: fetched when the task runs, streamed into storage. Only public
 * addresses (net-guard), redirects re-checked hop by hop, the size counted on
 * the bytes as they arrive.
 */
@Injectable()
export class UrlSource implements ImportSource {
  readonly operation = 'import/url';

  constructor(
    @Inject(STORAGE) private readonly storage: Storage,
    @Inject(SERVICE_CONFIG) private readonly config: ImporterConfig,
    @Inject(GUARDED_AGENTS) private readonly agents: GuardedAgents,
  ) {}

  async import(work: TaskWork, context: TaskContext): Promise<ImportedFile> {
    const url = work.spec?.url ?? '';
    const shown = describeUrl(url);
    const response = await fetchPublic(url, {
      guard: { allowPrivateNetworks: this.config.allowPrivateNetworks },
      agents: this.agents,
      maxRedirects: this.config.maxRedirects,
      maxBytes: this.config.maxImportBytes,
      timeoutMs: this.config.idleTimeoutMs,
      signal: context.signal,
    }).catch((error: unknown) => {
      throw networkFailure(error, `fetching ${shown}`) ?? new ServiceFailure(ErrorCode.INVALID_ARGUMENT, `fetching ${shown} failed: ${(error as Error).message}`);
    });
    if (response.status < 200 || response.status > 299) {
      response.body.destroy();
      const message = `fetching ${shown} failed: the server answered ${response.status}`;
      throw response.status >= 500 || response.status === 429 ? ServiceFailure.unavailable(message) : new ServiceFailure(ErrorCode.INVALID_ARGUMENT, message);
    }
    const filename = work.spec?.filename || filenameFromContentDisposition(response.headers['content-disposition']) || baseName(response.url.pathname) || fallbackFilename(work);
    const key = storageKey('jobs', work.jobId, work.taskName, filename);
    try {
      const stored = await this.storage.put(key, response.body);
      return { key, filename, size: stored.size };
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        throw importCeilingExceeded(`the file at ${shown}`, this.config.maxImportBytes);
      }
      throw networkFailure(error, `fetching ${shown}`) ?? ServiceFailure.unavailable(`fetching ${shown} failed: ${(error as Error).message}`, error);
    }
  }
}
