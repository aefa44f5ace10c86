import type { HttpReply, Job } from '../support';

/** The spec's Error shape with the expected status, and fragments of its message; returns the message. */
export function expectError(reply: HttpReply, status: number, ...fragments: string[]): string {
  const body = reply.json as { status?: unknown; message?: unknown } | undefined;
  const shaped = typeof body === 'object' && body !== null && body.status === 'error' && typeof body.message === 'string' && body.message !== '';
  if (reply.status !== status || !shaped || Object.keys(body).some((key) => !['status', 'message', 'retry_after'].includes(key))) {
    throw new Error(`${reply.method} ${reply.url}: expected ${status} {status:'error', message}, got ${reply.status}: ${reply.text.slice(0, 500)}`);
  }
  const message = body.message as string;
  const missing = fragments.filter((fragment) => !message.includes(fragment));
  if (missing.length > 0) throw new Error(`${reply.method} ${reply.url}: message ${JSON.stringify(message)} does not mention ${missing.map((m) => JSON.stringify(m)).join(', ')}`);
  return message;
}

/** The reply's job, after checking the status. */
export function expectJob(reply: HttpReply, status: number): Job {
  if (reply.status !== status) throw new Error(`${reply.method} ${reply.url}: expected ${status}, got ${reply.status}: ${reply.text.slice(0, 500)}`);
  return reply.json as Job;
}

/** import/upload (with a file name) -> convert -> export/url. */
export const standardTasks = (input = 'png', output = 'jpg') => ({
  in: { operation: 'import/upload', filename: `photo.${input}` },
  convert: { operation: 'convert', input: 'in', output_format: output },
  out: { operation: 'export/url', input: ['convert'] },
});
