import { Readable } from 'node:stream';
import { create } from '@bufbuild/protobuf';
import { type CreateJobRequest, CreateJobRequestSchema, type Job, TaskSpecSchema } from '@transmute/contracts';
import type { Storage } from '@transmute/storage';
import type { JobsService } from '../src/jobs/jobs.service';

/**
 * in (import/upload photo.png) -> to-jpg (convert) -> out (export/url, when asked), for account `acc`.
 * With `source: 'url'` the import fetches photo.png by URL instead: an import the importer runs
 * (an upload is finished by complete-upload itself), for tests of dispatch and worker reports.
 */
export function uploadConvertRequest(options: { webhookUrl?: string; withExport?: boolean; source?: 'upload' | 'url' } = {}): CreateJobRequest {
  const withExport = options.withExport ?? true;
  const source =
    options.source === 'url'
      ? create(TaskSpecSchema, { operation: 'import/url', url: 'https://files.example.com/photo.png' })
      : create(TaskSpecSchema, { operation: 'import/upload', filename: 'photo.png' });
  return create(CreateJobRequestSchema, {
    accountId: 'acc',
    webhookUrl: options.webhookUrl ?? '',
    convertAllowance: 5,
    taskOrder: withExport ? ['in', 'to-jpg', 'out'] : ['in', 'to-jpg'],
    tasks: {
      in: source,
      'to-jpg': create(TaskSpecSchema, { operation: 'convert', input: ['in'], outputFormat: 'jpg' }),
      ...(withExport && { out: create(TaskSpecSchema, { operation: 'export/url', input: ['to-jpg'], inputIsList: true }) }),
    },
  });
}

/** Creates the job and puts its upload's bytes where the form points (unused by a URL import), ready for complete-upload. */
export async function createUploadedJob(jobs: JobsService, storage: Storage, options?: Parameters<typeof uploadConvertRequest>[0]): Promise<Job> {
  const job = await jobs.create(uploadConvertRequest(options));
  await storage.put(`uploads/${job.id}/in`, Readable.from([Buffer.from('png bytes')]));
  return job;
}

export async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
