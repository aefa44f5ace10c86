/**
 * `pnpm bench:events`: the event stream and the webhook dispatcher under load.
 *
 *   node e2e/dist/bench/events.js [--streams N (1000)] [--deliveries N (1000)] [--receiver-delay-ms D (1000)]
 *
 * Starts its own infra and platform (free ports, temporary folder) and stops
 * them at the end. Phase 1 opens N event streams on one gateway (50 per job),
 * holds them through keep-alives, then runs the jobs so every stream gets its
 * events and closes; it prints the gateway's resident memory before, with the
 * streams open (twice, some seconds apart, to show it does not grow while
 * they idle), and after, and the memory per open stream. Phase 2 sends N
 * webhook deliveries (jobs with 100 export/webhook targets each) to a slow
 * receiver on loopback that answers 204 after D ms, and prints delivery
 * latency (job end -> receiver got the request) p50/p95 and the dispatcher's
 * memory while it works. Exits 1 when a stream or a delivery went missing.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { metricValue, type TransmuteClient } from '../support/api-client';
import { type Job, taskOf, uploadConvertExport } from '../support/api-types';
import { startLocalPlatform } from '../support/platform';
import { gradientPng } from '../support/samples';
import { openJobEvents, type SseStream } from '../events/sse-client';
import { percentile, positiveInteger } from './bench-kit';

const STREAMS_PER_JOB = 50;
const TARGETS_PER_JOB = 100;
const KEEP_ALIVE_MS = 2_000;
const HOLD_MS = 10_000;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const log = (line: string) => process.stdout.write(`${line}\n`);

async function rss(metricsUrl: string): Promise<number> {
  const response = await fetch(metricsUrl, { signal: AbortSignal.timeout(10_000) });
  const value = metricValue(await response.text(), 'process_resident_memory_bytes');
  if (value === undefined) throw new Error(`${metricsUrl} has no process_resident_memory_bytes`);
  return value;
}

/** A 503 means "try again shortly": the orchestrator is busy on this shared machine. */
async function retryingUnavailable<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= 10 || !/got 503/.test((error as Error).message)) throw error;
      await sleep(1_000 * attempt);
    }
  }
}

async function pendingJob(client: TransmuteClient, request = uploadConvertExport('png', 'jpg', 'bench-events')): Promise<{ job: Job; start: () => Promise<void> }> {
  const job = await retryingUnavailable(() => client.createJob(request));
  const form = taskOf(job, 'import-my-file').result?.form;
  if (!form) throw new Error('no upload form');
  const bytes = (await gradientPng(64, 48)).bytes;
  return {
    job,
    start: async () => {
      const put = await client.upload(form, bytes);
      if (put.status !== 200) throw new Error(`upload answered ${put.status}`);
      let tries = 0;
      await retryingUnavailable(async () => {
        tries += 1;
        const reply = await client.completeUploadReply(job.id);
        // A retry after a 503 whose request did go through finds the job started: that is the goal reached.
        if (reply.status === 200 || (reply.status === 409 && tries > 1)) return;
        throw new Error(`complete-upload: got ${reply.status}: ${reply.text.slice(0, 200)}`);
      });
    },
  };
}

async function inBatches<T>(items: T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  for (let index = 0; index < items.length; index += size) await Promise.all(items.slice(index, index + size).map(run));
}

async function streamsPhase(client: TransmuteClient, baseUrl: string, apiKey: string, gatewayMetrics: string, count: number): Promise<boolean> {
  const jobs: Array<Awaited<ReturnType<typeof pendingJob>>> = [];
  // A few at a time: job creation is not what is measured, and a burst only queues up in the orchestrator.
  await inBatches(
    Array.from({ length: Math.ceil(count / STREAMS_PER_JOB) }, (_, index) => index),
    5,
    async () => {
      jobs.push(await pendingJob(client));
    },
  );
  // Warm the route (JIT, pools) so the baseline is the idle gateway, not a cold one.
  const warm = await openJobEvents(baseUrl, apiKey, jobs[0]!.job.id);
  await warm.next(5_000);
  warm.close();
  await sleep(1_000);
  const before = await rss(gatewayMetrics);

  const streams: SseStream[] = [];
  const opening = performance.now();
  await inBatches(
    Array.from({ length: count }, (_, index) => jobs[Math.floor(index / STREAMS_PER_JOB)]!.job.id),
    // Each opening asks the orchestrator for the job (jobs.get); 25 at a time keeps that under its time-out here.
    25,
    async (jobId) => {
      const stream = await openJobEvents(baseUrl, apiKey, jobId);
      streams.push(stream);
      await stream.next(30_000);
    },
  );
  const openMs = performance.now() - opening;
  await sleep(1_000);
  const open = await rss(gatewayMetrics);
  await sleep(HOLD_MS);
  const held = await rss(gatewayMetrics);
  const keepAlives = streams.reduce((sum, stream) => sum + stream.comments.length, 0);

  const started = performance.now();
  await inBatches(jobs, 2, (job) => job.start());
  const ended = await Promise.all(
    streams.map((stream) =>
      stream.rest(180_000).then(
        () => true,
        () => false,
      ),
    ),
  );
  const closeMs = performance.now() - started;
  const finishedStreams = streams.filter((stream) => stream.events[stream.events.length - 1]?.event === 'job.finished').length;
  await sleep(2_000);
  const after = await rss(gatewayMetrics);

  log(`event streams: ${count} open on one gateway (${jobs.length} jobs, ${STREAMS_PER_JOB} streams each), opened in ${(openMs / 1000).toFixed(1)} s`);
  log(`  gateway RSS: before ${mb(before)}, ${count} open ${mb(open)}, after ${HOLD_MS / 1000} s idle ${mb(held)}, all closed ${mb(after)}`);
  log(`  memory per open stream: ${((open - before) / count / 1024).toFixed(1)} KiB; growth while idle: ${((held - open) / 1024 / 1024).toFixed(1)} MB`);
  log(`  keep-alives received while idle: ${keepAlives} (every ${KEEP_ALIVE_MS} ms per stream)`);
  log(`  jobs run: ${finishedStreams}/${count} streams ended with job.finished, all closed within ${(closeMs / 1000).toFixed(1)} s`);
  return finishedStreams === count && ended.every(Boolean);
}

async function deliveriesPhase(client: TransmuteClient, dispatcherMetrics: string, count: number, receiverDelayMs: number): Promise<boolean> {
  const arrivals = new Map<string, { at: number; job: number }>();
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer((req, res) => {
    req.resume();
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const delivery = String(req.headers['x-service-delivery']);
    const job = Number((req.url ?? '').split('/')[2]);
    if (!arrivals.has(delivery)) arrivals.set(delivery, { at: Date.now(), job });
    setTimeout(() => {
      inFlight -= 1;
      res.writeHead(204).end();
    }, receiverDelayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const before = await rss(dispatcherMetrics);
  const jobCount = Math.ceil(count / TARGETS_PER_JOB);
  const jobs: Job[] = [];
  for (let index = 0; index < jobCount; index++) {
    const request = uploadConvertExport('png', 'jpg', `bench-webhooks-${index}`);
    const targets = Math.min(TARGETS_PER_JOB, count - index * TARGETS_PER_JOB);
    for (let target = 0; target < targets; target++) {
      request.tasks[`hook-${target}`] = { operation: 'export/webhook', input: ['convert-my-file'], url: `http://127.0.0.1:${port}/hook/${index}/${target}` };
    }
    const pending = await pendingJob(client, request);
    await pending.start();
    jobs.push(pending.job);
  }
  const samples: number[] = [];
  const deadline = Date.now() + 600_000;
  while (arrivals.size < count && Date.now() < deadline) {
    samples.push(await rss(dispatcherMetrics));
    await sleep(2_000);
  }
  await sleep(receiverDelayMs + 500);
  const after = await rss(dispatcherMetrics);
  // Each job's end, read once the deliveries are in (polling big jobs meanwhile would only add load).
  const ends: number[] = [];
  for (const job of jobs) {
    const ended = await retryingUnavailable(() => client.getJob(job.id));
    ends.push(Date.parse(ended.endedAt ?? ended.updatedAt));
  }
  server.closeAllConnections();
  server.close();

  // Latency of each delivery: its job's end (endedAt) to the receiver seeing the first attempt.
  const latencies = [...arrivals.values()].map(({ at, job }) => at - (ends[job] ?? Number.NaN)).sort((a, b) => a - b);
  log(`webhooks: ${arrivals.size}/${count} deliveries to a receiver answering after ${receiverDelayMs} ms (${jobCount} job(s), up to ${TARGETS_PER_JOB} targets each)`);
  log(
    `  delivery latency (job end -> receiver): p50 ${(percentile(latencies, 50) / 1000).toFixed(2)} s, p95 ${(percentile(latencies, 95) / 1000).toFixed(2)} s, max ${(latencies[latencies.length - 1]! / 1000).toFixed(2)} s`,
  );
  log(`  receiver saw at most ${maxInFlight} requests at once (the dispatcher's concurrency bound)`);
  log(`  dispatcher RSS: before ${mb(before)}, peak while delivering ${mb(Math.max(before, ...samples))}, after ${mb(after)}`);
  return arrivals.size === count;
}

export interface EventsBenchOptions {
  streams: number;
  deliveries: number;
  receiverDelayMs: number;
}

/** Runs both phases on a platform of its own; true when no stream or delivery went missing. */
export async function runEventsBench({ streams, deliveries, receiverDelayMs }: EventsBenchOptions): Promise<boolean> {
  const local = await startLocalPlatform({
    name: 'bench-events',
    extraEnv: { TRANSMUTE_ALLOW_PRIVATE_NETWORKS: 'true', TRANSMUTE_SSE_KEEPALIVE_MS: String(KEEP_ALIVE_MS) },
  });
  let ok = false;
  try {
    const service = (name: string) => {
      const found = local.platform.services.find((candidate) => candidate.name === name);
      if (!found) throw new Error(`no ${name} in the platform`);
      return `${found.url}/metrics`;
    };
    const streamsOk = await streamsPhase(local.client, local.platform.baseUrl, local.platform.devApiKey, service('gateway'), streams);
    const deliveriesOk = await deliveriesPhase(local.client, service('webhook-dispatcher'), deliveries, receiverDelayMs);
    ok = streamsOk && deliveriesOk;
  } finally {
    await local.stop({ keepFiles: !ok });
    if (!ok) log(`logs kept in ${local.logDir}`);
  }
  return ok;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { streams: { type: 'string' }, deliveries: { type: 'string' }, 'receiver-delay-ms': { type: 'string' } },
    strict: true,
  });
  const ok = await runEventsBench({
    streams: positiveInteger('streams', values.streams, 1_000),
    deliveries: positiveInteger('deliveries', values.deliveries, 1_000),
    receiverDelayMs: positiveInteger('receiver-delay-ms', values['receiver-delay-ms'], 1_000),
  });
  process.exitCode = ok ? 0 : 1;
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  });
}
