import { setTimeout as sleep } from 'node:timers/promises';
import { ContractViolation, type Job, TERMINAL_JOB_STATUSES, type TransmuteClient, UnexpectedReply } from '../support';

/**
 * Many jobs in flight on the cluster at once, each with a webhook, followed
 * until every one has ended: what the fault and scaling tests submit, then
 * check for loss and duplicates.
 */

export interface BatchSource {
  filename: string;
  bytes: Buffer;
  outputFormat: string;
}

export interface SubmittedJob {
  id: string;
  submittedAt: number;
}

export interface EndedJob extends SubmittedJob {
  status: string;
  endedAt: number;
  error: string;
}

/**
 * What a client retries: the platform said "try again" (429, 503), or a pod
 * it reached was going away. Any other answer, a 500 above all, is a defect
 * the batch reports at once instead of hiding behind a retry.
 */
function worthRetrying(error: unknown): boolean {
  if (error instanceof UnexpectedReply) return error.reply.status === 429 || error.reply.status === 503;
  return !(error instanceof ContractViolation);
}

/** Creates one upload → convert → export job with a webhook, sends the bytes and completes the upload. */
export async function submitJob(client: TransmuteClient, source: BatchSource, webhookUrl: string, tag: string): Promise<SubmittedJob> {
  const job = await client.createJob({
    tag,
    webhook_url: webhookUrl,
    tasks: {
      upload: { operation: 'import/upload', filename: source.filename },
      convert: { operation: 'convert', input: 'upload', output_format: source.outputFormat },
      export: { operation: 'export/url', input: ['convert'] },
    },
  });
  const form = job.tasks.find((task) => task.name === 'upload')?.result?.form;
  if (!form) throw new Error(`job ${job.id} has no upload form`);
  const sent = await client.upload(form, source.bytes);
  if (sent.status < 200 || sent.status >= 300) throw new Error(`upload of job ${job.id} answered ${sent.status}: ${sent.text.slice(0, 300)}`);
  await client.completeUpload(job.id);
  return { id: job.id, submittedAt: Date.now() };
}

/** Submits `count` jobs, `parallel` at a time; a submission refused for now is retried after a pause, as a client would. */
export async function submitBatch(client: TransmuteClient, source: BatchSource, count: number, webhookUrl: string, tag: string, parallel = 8): Promise<SubmittedJob[]> {
  const submitted: SubmittedJob[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      for (let attempt = 1; ; attempt++) {
        try {
          submitted.push(await submitJob(client, source, webhookUrl, tag));
          break;
        } catch (error) {
          if (attempt >= 5 || !worthRetrying(error)) throw error;
          await sleep(1000 * attempt);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return submitted;
}

/**
 * Polls every job until all have ended; a job still running at the deadline
 * fails the wait, naming it. `onProgress` hears how many have ended so far.
 */
export async function waitForAll(client: TransmuteClient, jobs: SubmittedJob[], timeoutMs: number, onProgress?: (endedSoFar: number) => void): Promise<EndedJob[]> {
  const deadline = Date.now() + timeoutMs;
  const ended = new Map<string, EndedJob>();
  while (ended.size < jobs.length) {
    for (const job of jobs) {
      if (ended.has(job.id)) continue;
      let current: Job;
      try {
        current = await client.getJob(job.id);
      } catch (error) {
        if (!worthRetrying(error)) throw error;
        continue; // a gateway pod may be restarting; ask again on the next round
      }
      if (TERMINAL_JOB_STATUSES.includes(current.status)) {
        ended.set(job.id, { ...job, status: current.status, endedAt: Date.now(), error: current.error });
      }
    }
    onProgress?.(ended.size);
    if (ended.size === jobs.length) break;
    if (Date.now() > deadline) {
      const open = jobs.filter((job) => !ended.has(job.id)).map((job) => job.id);
      throw new Error(`${open.length} of ${jobs.length} jobs had not ended after ${timeoutMs / 1000} s, e.g. ${open.slice(0, 5).join(', ')}`);
    }
    await sleep(1000);
  }
  return jobs.map((job) => ended.get(job.id)!);
}
