import type { CreateJobRequest, Job } from '../support/api-types';
import { openJobEvents } from '../events/sse-client';
import { percentile } from './bench-kit';

/**
 * One import/base64 -> convert -> export/url job: create, open its event
 * stream, then complete-upload (a job without upload tasks waits for it, as
 * the spec's standard flow does); timed from the complete-upload request until
 * the stream says `job.finished`. Plain fetch: the benchmark measures the
 * platform, not the e2e client's schema validation.
 */
/** `job`: the finished job, when the outcome is a platform job. */
export type Outcome = { ok: true; latencyMs: number; job?: Job } | { ok: false; error: string };

export function base64Job(bytes: Buffer, from: string, to: string, tag: string): CreateJobRequest {
  return {
    tag,
    tasks: {
      'import-my-file': { operation: 'import/base64', file: bytes.toString('base64'), filename: `bench.${from}` },
      'convert-my-file': { operation: 'convert', input: 'import-my-file', input_format: from, output_format: to },
      'export-my-file': { operation: 'export/url', input: ['convert-my-file'] },
    },
  };
}

async function post(url: string, apiKey: string, body: unknown, timeoutMs: number): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json', ...(body !== undefined && { 'Content-Type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return { status: response.status, text: await response.text() };
}

/** `onStart` runs just before the complete-upload request, where the clock starts. */
export async function runEventJob(baseUrl: string, apiKey: string, body: CreateJobRequest, timeoutMs: number, onStart?: () => void): Promise<Outcome> {
  try {
    const created = await post(`${baseUrl}/v1/process/jobs`, apiKey, body, timeoutMs);
    if (created.status !== 201) return { ok: false, error: `create answered ${created.status}: ${created.text.slice(0, 160)}` };
    const jobId = (JSON.parse(created.text) as Job).id;
    const stream = await openJobEvents(baseUrl, apiKey, jobId);
    try {
      if (stream.status !== 200) return { ok: false, error: `events answered ${stream.status}: ${stream.errorBody.slice(0, 160)}` };
      onStart?.();
      const began = performance.now();
      const started = await post(`${baseUrl}/v1/process/jobs/${jobId}/complete-upload`, apiKey, undefined, timeoutMs);
      if (started.status !== 200) return { ok: false, error: `complete-upload answered ${started.status}: ${started.text.slice(0, 160)}` };
      const deadline = began + timeoutMs;
      for (;;) {
        const event = await stream.next(Math.max(1, deadline - performance.now()));
        if (event.event === 'job.finished') return { ok: true, latencyMs: performance.now() - began, job: JSON.parse(event.data) as Job };
        if (event.event === 'job.failed') return { ok: false, error: `job failed: ${(JSON.parse(event.data) as Job).error}` };
      }
    } finally {
      stream.close();
    }
  } catch (error) {
    return { ok: false, error: (error as Error).message.split('\n')[0] ?? String(error) };
  }
}

/**
 * The same job as runEventJob, followed the way a client without an event
 * stream does: a GET of the job every `intervalMs` after complete-upload,
 * timed until the first GET that sees it finished.
 */
export async function runPollJob(baseUrl: string, apiKey: string, body: CreateJobRequest, intervalMs: number, timeoutMs: number): Promise<Outcome> {
  try {
    const created = await post(`${baseUrl}/v1/process/jobs`, apiKey, body, timeoutMs);
    if (created.status !== 201) return { ok: false, error: `create answered ${created.status}: ${created.text.slice(0, 160)}` };
    const jobId = (JSON.parse(created.text) as Job).id;
    const began = performance.now();
    const started = await post(`${baseUrl}/v1/process/jobs/${jobId}/complete-upload`, apiKey, undefined, timeoutMs);
    if (started.status !== 200) return { ok: false, error: `complete-upload answered ${started.status}: ${started.text.slice(0, 160)}` };
    while (performance.now() - began < timeoutMs) {
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
      const response = await fetch(`${baseUrl}/v1/process/jobs/${jobId}`, {
        headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      if (response.status !== 200) return { ok: false, error: `get-job answered ${response.status}: ${text.slice(0, 160)}` };
      const job = JSON.parse(text) as Job;
      if (job.status === 'finished') return { ok: true, latencyMs: performance.now() - began, job };
      if (job.status === 'failed') return { ok: false, error: `job failed: ${job.error}` };
    }
    return { ok: false, error: `not finished within ${timeoutMs} ms` };
  } catch (error) {
    return { ok: false, error: (error as Error).message.split('\n')[0] ?? String(error) };
  }
}

export interface PhaseResult {
  name: string;
  concurrency: number;
  outcomes: Outcome[];
  wallMs: number;
}

/** `jobs` jobs with `concurrency` in flight; no new job starts after `maxMs`. */
export async function runPhase(name: string, jobs: number, concurrency: number, maxMs: number, job: (index: number) => Promise<Outcome>): Promise<PhaseResult> {
  const outcomes: Outcome[] = [];
  let next = 0;
  const began = performance.now();
  const worker = async (): Promise<void> => {
    while (next < jobs && performance.now() - began < maxMs) outcomes.push(await job(next++));
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs) }, worker));
  return { name, concurrency, outcomes, wallMs: performance.now() - began };
}

/** Figures of one phase (engine loop or platform), in milliseconds and jobs per second. */
export interface Summary {
  done: number;
  errors: number;
  /** Successful jobs per second of phase wall time. */
  jobsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  /** The first few distinct errors with their counts. */
  errorSamples: string[];
}

export function summarize(latenciesMs: readonly number[], errors: readonly string[], wallMs: number): Summary {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  const counts = new Map<string, number>();
  for (const error of errors) counts.set(error, (counts.get(error) ?? 0) + 1);
  return {
    done: sorted.length,
    errors: errors.length,
    jobsPerSecond: (sorted.length * 1000) / wallMs,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    errorSamples: [...counts].slice(0, 3).map(([error, count]) => `${count}x ${error}`),
  };
}

export function summarizePhase(phase: PhaseResult): Summary {
  return summarize(
    phase.outcomes.flatMap((outcome) => (outcome.ok ? [outcome.latencyMs] : [])),
    phase.outcomes.flatMap((outcome) => (outcome.ok ? [] : [outcome.error])),
    phase.wallMs,
  );
}
