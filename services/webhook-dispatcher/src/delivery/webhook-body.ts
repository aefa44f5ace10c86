import type { Job, TaskResult } from '@transmute/contracts';

/** What a receiver gets in a task's `result`: the public fields that are set (never the upload form). */
export interface WebhookTaskResult {
  url?: string;
  filename?: string;
  files?: Array<{ url: string; filename: string }>;
  download_url?: string;
  error?: string;
}

export interface WebhookTask {
  operation: string;
  status: string;
  result: WebhookTaskResult | null;
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

function renderResult(result: TaskResult | undefined): WebhookTaskResult | null {
  if (!result) return null;
  const rendered: WebhookTaskResult = {};
  if (result.url) rendered.url = result.url;
  if (result.filename) rendered.filename = result.filename;
  if (result.files.length > 0) rendered.files = result.files.map(({ url, filename }) => ({ url, filename }));
  if (result.downloadUrl) rendered.download_url = result.downloadUrl;
  if (result.error) rendered.error = result.error;
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
