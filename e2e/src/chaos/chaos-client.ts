import type { CreateJobRequest, Job, UploadForm } from '../support/api-types';
import { uploadBody } from '../support/api-client';

export interface Reply {
  status: number;
  body: unknown;
}

const REQUEST_TIMEOUT_MS = 15_000;
const RETRY_PAUSE_MS = 500;

/**
 * The API as a patient client uses it while services die under it: every call
 * is retried on a refused connection, a time-out or a 502/503/504 until the
 * caller's deadline; anything else is returned as is.
 */
export class ChaosClient {
  retries = 0;
  /** Uploads sent again because complete-upload said the bytes had not arrived. */
  resends = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  async call(method: string, path: string, deadline: number, body?: unknown): Promise<Reply> {
    return this.retrying(deadline, async () => {
      const response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: { Authorization: `Bearer ${this.apiKey}`, Accept: 'application/json', ...(body !== undefined && { 'Content-Type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await response.text();
      return { status: response.status, body: text ? parseJson(text) : undefined };
    });
  }

  createJob(request: CreateJobRequest, deadline: number): Promise<Reply> {
    return this.call('POST', '/v1/process/jobs', deadline, request);
  }

  getJob(id: string, deadline: number): Promise<Reply> {
    return this.call('GET', `/v1/process/jobs/${id}`, deadline);
  }

  completeUpload(id: string, deadline: number): Promise<Reply> {
    return this.call('POST', `/v1/process/jobs/${id}/complete-upload`, deadline);
  }

  upload(form: UploadForm, bytes: Buffer, deadline: number): Promise<Reply> {
    return this.retrying(deadline, async () => {
      const response = await fetch(form.url, { method: form.method, ...uploadBody(form, bytes, form.headers), signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      await response.arrayBuffer();
      return { status: response.status, body: undefined };
    });
  }

  private async retrying(deadline: number, attempt: () => Promise<Reply>): Promise<Reply> {
    for (;;) {
      let reply: Reply | undefined;
      let failure: unknown;
      try {
        reply = await attempt();
      } catch (error) {
        failure = error;
      }
      if (reply && ![502, 503, 504].includes(reply.status)) return reply;
      if (Date.now() + RETRY_PAUSE_MS > deadline) {
        if (reply) return reply;
        throw failure instanceof Error ? failure : new Error(String(failure));
      }
      this.retries += 1;
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function isJob(body: unknown): body is Job {
  return typeof body === 'object' && body !== null && typeof (body as { id?: unknown }).id === 'string' && Array.isArray((body as { tasks?: unknown }).tasks);
}
