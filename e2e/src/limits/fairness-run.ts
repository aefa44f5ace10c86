import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openJobEvents } from '../events/sse-client';
import { TransmuteClient } from '../support/api-client';
import type { CreateJobRequest, Job } from '../support/api-types';

/**
 * What the fair-scheduling e2e spec and `pnpm bench:fairness` share: a
 * flooding account, a small account with one job, and what the job event
 * log says about how many of the flood's converts ran at once.
 */

/** Plans for the run: the flood may run `floodAllowance` converts at once; neither meets a quota or rate limit. */
export function fairnessPlans(floodAllowance: number) {
  const roomy = { monthlyGb: 1000, additionalGb: 0, dailyConversions: 1_000_000, rateLimitPerMinute: 1_000_000 };
  return { 'e2e-flood': { ...roomy, convertAllowance: floodAllowance }, 'e2e-single': { ...roomy, convertAllowance: floodAllowance } };
}

/** A loopback HTTP server handing out one source file to every import/url; no job carries the bytes itself. */
export async function serveSource(bytes: Buffer): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(bytes.length) });
    response.end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/noise.png`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** One convert of the source, fetched by the platform: nothing to upload, so a flood is cheap to create. */
export const fetchAndConvert = (sourceUrl: string, tag: string): CreateJobRequest => ({
  tag,
  tasks: {
    source: { operation: 'import/url', url: sourceUrl, input_format: 'png' },
    convert: { operation: 'convert', input: 'source', output_format: 'jpg' },
  },
});

/** Creates and starts a job; returns its id and when it was started (ms, performance clock). */
export async function startJob(client: TransmuteClient, request: CreateJobRequest): Promise<{ id: string; startedAt: number }> {
  const created = await client.createJob(request);
  await client.completeUpload(created.id);
  return { id: created.id, startedAt: performance.now() };
}

/** Starts `count` jobs, a few at a time (a flood arrives faster than one request after another); ids in start order. */
export async function startMany(client: TransmuteClient, count: number, request: (index: number) => CreateJobRequest, parallel = 6): Promise<string[]> {
  const ids: string[] = new Array<string>(count);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < count; index = next++) ids[index] = (await startJob(client, request(index))).id;
  };
  await Promise.all(Array.from({ length: Math.min(parallel, count) }, worker));
  return ids;
}

/** Polls until every job has ended; returns when each ended (ms, performance clock) and its last state. */
export async function endings(client: TransmuteClient, jobIds: readonly string[], timeoutMs: number): Promise<Map<string, { at: number; job: Job }>> {
  const ended = new Map<string, { at: number; job: Job }>();
  const deadline = Date.now() + timeoutMs;
  while (ended.size < jobIds.length) {
    if (Date.now() > deadline) throw new Error(`${jobIds.length - ended.size} of ${jobIds.length} jobs did not end within ${timeoutMs} ms`);
    for (const id of jobIds) {
      if (ended.has(id)) continue;
      const job = await client.getJob(id);
      if (job.status === 'finished' || job.status === 'failed') ended.set(id, { at: performance.now(), job });
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return ended;
}

/**
 * The most of `jobIds`' converts processing at the same time, read from the
 * job event log through the public event stream: each ended job's stream
 * replayed from its start (`Last-Event-ID: 0`), the events of all jobs put
 * in log order by their ids (stream sequences). A job's one convert runs
 * from the event that shows it `processing` to the event that shows it
 * ended.
 */
export async function mostConvertsAtOnce(client: TransmuteClient, apiKey: string, jobIds: readonly string[]): Promise<number> {
  const events: Array<{ id: number; job: Job }> = [];
  for (const jobId of jobIds) {
    const stream = await openJobEvents(client.baseUrl, apiKey, jobId, '0');
    for (const event of await stream.rest(60_000)) events.push({ id: Number(event.id), job: JSON.parse(event.data) as Job });
  }
  events.sort((a, b) => a.id - b.id);
  const running = new Set<string>();
  let most = 0;
  for (const { job } of events) {
    const convert = job.tasks.find((task) => task.operation === 'convert');
    if (convert?.status === 'processing') running.add(job.id);
    else running.delete(job.id);
    most = Math.max(most, running.size);
  }
  return most;
}
