/**
 * `pnpm bench:latency`: end-to-end latency of small png -> jpg jobs, measured
 * from the complete-upload request to the first poll that sees `finished`.
 *
 *   node e2e/dist/bench/latency.js [--jobs N] [--concurrency C] [--start]
 *
 * Against a running platform (`make up`): TRANSMUTE_URL (default
 * http://127.0.0.1:8080), key from TRANSMUTE_API_KEY or <repo>/.transmute/dev-api-key.
 * `--start` starts its own infra and platform through @transmute/devstack
 * (free ports, temporary folder) and stops them at the end.
 *
 * Phase 1 runs N jobs one after another, phase 2 runs N more with C at a time.
 * Prints percentiles, mean, min/max, jobs per second, failures and the
 * gateway's RSS. Asserts nothing about speed; exits 1 when a job failed.
 */
import { parseArgs } from 'node:util';
import { metricValue, type TransmuteClient } from '../support/api-client';
import { taskOf, uploadConvertExport } from '../support/api-types';
import { gradientPng, type Sample } from '../support/samples';
import { JobWaitFailed, waitForFinished } from '../support/wait-for-job';
import { openBenchTarget, percentile, positiveInteger } from './bench-kit';

const POLL_INTERVAL_MS = 50;
const JOB_TIMEOUT_MS = 60_000;

interface Options {
  jobs: number;
  concurrency: number;
  start: boolean;
}

function readOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      jobs: { type: 'string' },
      concurrency: { type: 'string' },
      start: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write('usage: node e2e/dist/bench/latency.js [--jobs N (50)] [--concurrency C (8)] [--start]\n');
    process.exit(0);
  }
  return {
    jobs: positiveInteger('jobs', values.jobs, 50),
    concurrency: positiveInteger('concurrency', values.concurrency, 8),
    start: values.start ?? false,
  };
}

type Outcome = { ok: true; latencyMs: number } | { ok: false; error: string };

/** One job through the standard flow; the clock runs from complete-upload to finished. */
async function runJob(client: TransmuteClient, sample: Sample, tag: string): Promise<Outcome> {
  try {
    const job = await client.createJob(uploadConvertExport('png', 'jpg', tag));
    const form = taskOf(job, 'import-my-file').result?.form;
    if (!form) throw new Error('the import task has no upload form');
    const put = await client.upload(form, sample.bytes);
    if (put.status !== 200) throw new Error(`upload answered ${put.status}: ${put.text.slice(0, 200)}`);
    const startedAt = performance.now();
    await client.completeUpload(job.id);
    await waitForFinished(client, job.id, JOB_TIMEOUT_MS, POLL_INTERVAL_MS);
    return { ok: true, latencyMs: performance.now() - startedAt };
  } catch (error) {
    const first = (error as Error).message.split('\n')[0] ?? String(error);
    // A stuck job: say where it stuck.
    const seen = error instanceof JobWaitFailed ? `; states seen: ${error.seen.join(' -> ')}` : '';
    return { ok: false, error: `${first}${seen}` };
  }
}

interface PhaseResult {
  name: string;
  outcomes: Outcome[];
  wallMs: number;
}

async function runPhase(name: string, client: TransmuteClient, sample: Sample, jobs: number, concurrency: number): Promise<PhaseResult> {
  const outcomes: Outcome[] = [];
  let next = 0;
  const began = performance.now();
  const worker = async (): Promise<void> => {
    while (next < jobs) {
      const index = next++;
      outcomes.push(await runJob(client, sample, `bench-${name}-${index}`));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs) }, worker));
  return { name, outcomes, wallMs: performance.now() - began };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

function report(phase: PhaseResult): string {
  const latencies = phase.outcomes.flatMap((outcome) => (outcome.ok ? [outcome.latencyMs] : [])).sort((a, b) => a - b);
  const failures = phase.outcomes.flatMap((outcome) => (outcome.ok ? [] : [outcome.error]));
  const lines = [`${phase.name}: ${phase.outcomes.length} jobs in ${(phase.wallMs / 1000).toFixed(2)} s`];
  if (latencies.length > 0) {
    const mean = latencies.reduce((sum, value) => sum + value, 0) / latencies.length;
    lines.push(
      `  complete-upload -> finished: p50 ${ms(percentile(latencies, 50))}  p95 ${ms(percentile(latencies, 95))}  p99 ${ms(percentile(latencies, 99))}`,
      `  mean ${ms(mean)}  min ${ms(latencies[0] as number)}  max ${ms(latencies[latencies.length - 1] as number)}`,
    );
  }
  lines.push(`  throughput ${((latencies.length * 1000) / phase.wallMs).toFixed(2)} jobs/s (finished jobs / phase wall time)`);
  lines.push(`  failures ${failures.length}`);
  const distinct = [...new Map(failures.map((failure) => [failure, failures.filter((other) => other === failure).length])).entries()];
  for (const [failure, count] of distinct.slice(0, 5)) lines.push(`    ${count}x ${failure}`);
  return lines.join('\n');
}

async function gatewayRss(client: TransmuteClient): Promise<string> {
  try {
    const metrics = await client.metrics();
    const rss = metrics === undefined ? undefined : metricValue(metrics, 'process_resident_memory_bytes');
    return rss === undefined ? 'n/a (no process_resident_memory_bytes on /metrics)' : `${(rss / 1024 / 1024).toFixed(1)} MiB`;
  } catch (error) {
    return `n/a (${(error as Error).message})`;
  }
}

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  let failed = true;
  const target = await openBenchTarget(options.start, { name: 'bench-latency' });
  try {
    const client = target.client;
    const sample = await gradientPng(256, 256);
    process.stdout.write(
      `target ${client.baseUrl}; ${options.jobs} jobs per phase, concurrency ${options.concurrency}; ` +
        `png -> jpg, ${sample.width}x${sample.height} (${sample.bytes.length} bytes); polling every ${POLL_INTERVAL_MS} ms\n`,
    );
    process.stdout.write(`gateway RSS before: ${await gatewayRss(client)}\n`);

    const warmUp = await runJob(client, sample, 'bench-warm-up');
    process.stdout.write(`warm-up (not counted): ${warmUp.ok ? ms(warmUp.latencyMs) : `failed: ${warmUp.error}`}\n\n`);

    const phases = [
      await runPhase('sequential', client, sample, options.jobs, 1),
      await runPhase(`parallel (${options.concurrency} at a time)`, client, sample, options.jobs, options.concurrency),
    ];
    for (const phase of phases) process.stdout.write(`${report(phase)}\n`);
    process.stdout.write(`\ngateway RSS after: ${await gatewayRss(client)}\n`);
    failed = !warmUp.ok || phases.some((phase) => phase.outcomes.some((outcome) => !outcome.ok));
    return failed ? 1 : 0;
  } finally {
    await target.stop(failed);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench:latency failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    const cause: unknown = error instanceof Error ? error.cause : undefined;
    if (cause) process.stderr.write(`cause: ${cause instanceof Error ? (cause.stack ?? cause.message) : JSON.stringify(cause)}\n`);
    process.exit(2);
  },
);
