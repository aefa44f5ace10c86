import { TERMINAL_JOB_STATUSES } from '@transmute/contracts/operations';
import { headers, type JobView, parseBody } from './api';

const MAX_RECONNECTS = 5;

/**
 * Follows a job's event stream (`/v1/process/jobs/{id}/events`, SSE) with
 * fetch, since EventSource cannot send the CSRF header. Calls `onJob` with
 * every job state and resolves with the last one, once it is finished or
 * failed; a dropped stream is resumed with Last-Event-ID.
 */
export async function followJob(jobId: string, onJob: (job: JobView) => void, signal?: AbortSignal): Promise<JobView> {
  let lastEventId: string | undefined;
  let last: JobView | undefined;
  for (let attempt = 0; attempt <= MAX_RECONNECTS; attempt += 1) {
    const response = await fetch(`/v1/process/jobs/${jobId}/events`, {
      credentials: 'same-origin',
      headers: headers({ Accept: 'text/event-stream', ...(lastEventId !== undefined && { 'Last-Event-ID': lastEventId }) }),
      ...(signal && { signal }),
    });
    if (!response.ok || !response.body) {
      const body = parseBody(await response.text().catch(() => ''));
      throw new Error(body?.message ?? `the progress stream answered ${response.status}`);
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('id:')) lastEventId = line.slice(3).trim();
          else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        }
        if (data.length === 0) continue;
        last = JSON.parse(data.join('\n')) as JobView;
        onJob(last);
        if ((TERMINAL_JOB_STATUSES as readonly string[]).includes(last.status)) {
          await reader.cancel().catch(() => undefined);
          return last;
        }
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(last ? `lost the progress stream; last status: ${last.status}` : 'lost the progress stream');
}
