import { setTimeout as sleep } from 'node:timers/promises';
import { type TransmuteClient, UnexpectedReply } from './api-client';
import { type Job, TERMINAL_JOB_STATUSES } from './api-types';

export interface WaitForJobOptions {
  /** Pause between two GETs (default 100 ms). */
  intervalMs?: number;
  /**
   * Give up at once when the job reaches finished/failed without satisfying
   * the predicate (default true): it will never change again.
   */
  stopOnTerminal?: boolean;
  /** Named in the error on timeout, e.g. 'convert task processing'. */
  waitingFor?: string;
}

/** A wait that ended without the job matching; carries what was seen. */
export class JobWaitFailed extends Error {
  constructor(
    message: string,
    readonly lastJob: Job | undefined,
    readonly seen: string[],
  ) {
    super(`${message}\nstates seen: ${seen.join(' -> ') || '(none)'}\nlast job: ${JSON.stringify(lastJob, null, 2)}`);
    this.name = 'JobWaitFailed';
  }
}

/** `status [task=status ...]`, to follow a job's progress in errors. */
export function jobState(job: Job): string {
  return `${job.status} [${job.tasks.map((task) => `${task.name}=${task.status}`).join(' ')}]`;
}

/**
 * Polls `GET /v1/process/jobs/{id}` until `predicate(job)` holds and returns
 * that job; throws JobWaitFailed on timeout, or when the job ended otherwise.
 */
export async function waitForJob(client: TransmuteClient, jobId: string, predicate: (job: Job) => boolean, timeoutMs: number, options: WaitForJobOptions = {}): Promise<Job> {
  const { intervalMs = 100, stopOnTerminal = true, waitingFor = 'the predicate' } = options;
  const deadline = Date.now() + timeoutMs;
  const seen: string[] = [];
  let last: Job | undefined;
  for (;;) {
    const polled = await pollOnce(client, jobId);
    if (typeof polled === 'number') {
      // A shed read is the platform asking to come back later; a polling client backs off as told.
      if (Date.now() + polled >= deadline) throw new JobWaitFailed(`job ${jobId}: still shed (503) when ${timeoutMs} ms ran out`, last, seen);
      await sleep(polled);
      continue;
    }
    last = polled;
    const state = jobState(last);
    if (seen[seen.length - 1] !== state) seen.push(state);
    if (predicate(last)) return last;
    if (stopOnTerminal && TERMINAL_JOB_STATUSES.includes(last.status)) {
      throw new JobWaitFailed(`job ${jobId} ended ${last.status} (error: ${JSON.stringify(last.error)}) while waiting for ${waitingFor}`, last, seen);
    }
    if (Date.now() >= deadline) throw new JobWaitFailed(`job ${jobId}: ${waitingFor} not reached within ${timeoutMs} ms`, last, seen);
    await sleep(Math.min(intervalMs, Math.max(0, deadline - Date.now())));
  }
}

/** The job, or the milliseconds a 503 with Retry-After asks to wait. */
async function pollOnce(client: TransmuteClient, jobId: string): Promise<Job | number> {
  try {
    return await client.getJob(jobId);
  } catch (error) {
    const retryAfter = error instanceof UnexpectedReply && error.reply.status === 503 ? Number(error.reply.headers.get('retry-after') ?? NaN) : NaN;
    if (Number.isFinite(retryAfter) && retryAfter >= 0) return retryAfter * 1_000;
    throw error;
  }
}

/** Waits for `finished` (fails fast on `failed`). */
export function waitForFinished(client: TransmuteClient, jobId: string, timeoutMs: number, intervalMs?: number): Promise<Job> {
  return waitForJob(client, jobId, (job) => job.status === 'finished', timeoutMs, {
    waitingFor: 'status finished',
    ...(intervalMs !== undefined && { intervalMs }),
  });
}
