import { type TaskResultView, renderTaskResult } from '@transmute/api-schema';
import type { Job, TaskResult } from '@transmute/contracts';

export interface WebhookTask {
  operation: string;
  status: string;
  /** The public fields that are set, as in the REST job view, but never the upload form. */
  result: TaskResultView | null;
}

/** The JSON body of a delivery (spec: Events, Webhook notification; `error` on job.failed is ours). */
export interface WebhookBody {
  event: string;
  id: string;
  status: string;
  tasks: Record<string, WebhookTask>;
  /** Only on `job.failed`: which task failed and why, as on the job. */
  error?: string;
}

function renderResult(result: TaskResult | undefined): TaskResultView | null {
  const rendered = result ? renderTaskResult(result, { uploadForm: false }) : {};
  return Object.keys(rendered).length > 0 ? rendered : null;
}

export function webhookBody(event: string, job: Job): WebhookBody {
  const tasks: Record<string, WebhookTask> = {};
  for (const task of job.tasks) tasks[task.name] = { operation: task.operation, status: task.status, result: renderResult(task.result) };
  return { event, id: job.id, status: job.status, tasks, ...(event === 'job.failed' ? { error: job.error } : {}) };
}

/** The exact bytes that are signed and sent; the same job renders the same bytes on every attempt. */
export function webhookBodyBytes(event: string, job: Job): Buffer {
  return Buffer.from(JSON.stringify(webhookBody(event, job)), 'utf8');
}
