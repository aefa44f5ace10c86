import { TERMINAL_JOB_STATUSES, type JobStatus } from '@transmute/contracts';

/**
 * Event names of `GET /v1/process/jobs/{jobId}/events` (docs/events.md):
 * `job.updated` for every non-terminal status, `job.finished` and
 * `job.failed` for the last event, like the webhook kinds.
 */
export function eventName(status: string): string {
  if (status === 'finished') return 'job.finished';
  if (status === 'failed') return 'job.failed';
  return 'job.updated';
}

/** A running convert's progress between status changes: the job, its task's `progress` newer (docs/events.md). */
export const PROGRESS_EVENT = 'job.progress';

export function isTerminal(status: string): boolean {
  return TERMINAL_JOB_STATUSES.includes(status as JobStatus);
}

/** One server-sent event; `data` is one line of JSON, so it needs one `data:` field. */
export function formatEvent(id: number, name: string, data: unknown): string {
  return `id: ${id}\nevent: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A comment line: ignored by EventSource, keeps proxies and load balancers from closing an idle stream. */
export const KEEP_ALIVE = ': keep-alive\n\n';

/** `Last-Event-ID` as we issue it: a JetStream sequence number; anything else is ignored. */
export function parseLastEventId(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\d{1,15}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}
