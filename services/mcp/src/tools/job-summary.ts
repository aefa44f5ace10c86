import { z } from 'zod';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { JOB_STATUSES, type Job, TERMINAL_JOB_STATUSES, TERMINAL_TASK_STATUSES } from '@transmute/contracts';

/** The job has ended (finished or failed). */
export const isJobEnded = (status: string): boolean => (TERMINAL_JOB_STATUSES as readonly string[]).includes(status);
/** The task will not move again: finished, failed, or cancelled because the job failed first. */
const isTaskEnded = (status: string): boolean => (TERMINAL_TASK_STATUSES as readonly string[]).includes(status);

/** What convert and get_job answer: one shape, so an assistant reads both the same way. */
export const JobSummary = z.object({
  job_id: z.string().describe('The job id (32 hex characters); pass it to get_job.'),
  status: z.enum(JOB_STATUSES).describe('The job status.'),
  tag: z.string().describe('The label given at creation; empty when none.'),
  created_at: z.string().describe('ISO 8601.'),
  ended_at: z.string().nullable().describe('ISO 8601 once finished or failed; null before.'),
  error: z.string().describe('Why the job failed; empty otherwise.'),
  tasks: z
    .array(
      z.object({
        name: z.string(),
        operation: z.string(),
        status: z.string(),
        progress: z.number().int().min(0).max(100).optional().describe('0-100 while a long conversion reports it.'),
        error: z.string().optional().describe('Why this task failed.'),
      }),
    )
    .describe('Per-task status and results.'),
  downloads: z
    .array(z.object({ filename: z.string(), url: z.string().describe('Download link: answers 302 to the file; valid for the retention period.') }))
    .describe('The converted files; empty until the job has finished.'),
  next_step: z.string().describe('What to do next, in words.'),
});
export type JobSummary = z.infer<typeof JobSummary>;

const iso = (stamp: Timestamp | undefined): string | null => (stamp ? timestampDate(stamp).toISOString() : null);

function nextStep(job: Job, downloads: number): string {
  if (job.status === 'finished') return downloads > 0 ? 'Finished: give the person the download link(s).' : 'Finished, but it produced no download link.';
  if (job.status === 'failed') return `Failed: ${job.error || 'see the failed task'}. Tell the person why; fix the URL or format and call convert again.`;
  return `Still ${job.status}: call get_job with job_id "${job.id}" again in a few seconds.`;
}

export function summariseJob(job: Job): JobSummary {
  const downloads = job.tasks.flatMap((task) => {
    if (task.operation !== 'export/url' || !task.result) return [];
    if (task.result.files.length > 0) return task.result.files.map((file) => ({ filename: file.filename, url: file.url }));
    return task.result.url ? [{ filename: task.result.filename, url: task.result.url }] : [];
  });
  return {
    job_id: job.id,
    status: job.status as JobSummary['status'],
    tag: job.tag,
    created_at: iso(job.createdAt) ?? new Date(0).toISOString(),
    ended_at: iso(job.endedAt),
    error: job.error,
    tasks: job.tasks.map((task) => ({
      name: task.name,
      operation: task.operation,
      status: task.status,
      ...(task.progress !== undefined && { progress: task.progress }),
      ...(task.result?.error && { error: task.result.error }),
    })),
    downloads,
    next_step: nextStep(job, downloads.length),
  };
}

/** Progress of a job as tasks done out of all (a running conversion's own percentage counts in part). */
export function jobProgress(job: Job): { progress: number; total: number } {
  const total = job.tasks.length;
  const progress = job.tasks.reduce((sum, task) => sum + (isTaskEnded(task.status) ? 1 : (task.progress ?? 0) / 100), 0);
  return { progress: Math.round(progress * 100) / 100, total };
}
