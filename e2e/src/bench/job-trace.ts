/**
 * `pnpm bench:trace`: where one small job's latency goes, hop by hop.
 *
 *   node e2e/dist/bench/job-trace.js [--jobs N (40)] [--docx] [--start] [--nats URL]
 *
 * Runs the throughput benchmark's small job (256x256 PNG -> JPG,
 * import/base64 -> convert -> export/url), or with --docx its 10-page
 * DOCX -> PDF job, N times one at a time, with a
 * client subscribed to every subject of the platform's NATS. For each job it
 * notes when each message passed, counted from the complete-upload request,
 * and prints the medians of the milestones on the job's critical path, the
 * whole timeline of the median job, and a census: every message of a job,
 * from its create to its end, by kind, per job. The tracer receives a copy
 * of every message, which itself slows NATS a little: read the gaps, not the
 * total.
 *
 * Against `make up` (its .transmute/endpoints.json and dev key), or with
 * `--start` its own platform through @transmute/devstack. Another running
 * platform's NATS is given with --nats (or TRANSMUTE_NATS_URL), as for the
 * throughput benchmark.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type NatsConnection, connect } from 'nats';
import { findLocalEndpoints } from '@transmute/service-kit';
import { gradientPng } from '../support/samples';
import { median, openBenchTarget, positiveInteger } from './bench-kit';
import { writeBenchDocx } from './engine-loop-client';
import { base64Job, runEventJob } from './job-phase';

const JOB_TIMEOUT_MS = 60_000;

interface Passed {
  atMs: number;
  subject: string;
  bytes: number;
}

/** Milestones on a small job's path, each the first message whose subject matches (the last, for `last`). */
const MILESTONES: Array<{ name: string; subject: RegExp; last?: boolean }> = [
  { name: 'rate-limit write (gateway)', subject: /^\$KV\.account_rate_limits\./ },
  { name: 'complete-upload request (gateway -> orchestrator)', subject: /^jobs\.complete-upload$/ },
  { name: 'usage charge request (orchestrator -> gateway)', subject: /^accounts\.usage\.charge$/ },
  { name: 'work published (orchestrator -> converter)', subject: /^tasks\.convert\./ },
  { name: 'outcome published (converter -> orchestrator)', subject: /^tasks\.outcomes$/ },
  { name: 'finished event published (orchestrator)', subject: /^job\.events\./, last: true },
];

interface Traced {
  totalMs: number;
  passed: Passed[];
}

/**
 * A message's kind for the census: its subject without the job, account or
 * inbox it names. A subscriber to `>` also sees each JetStream delivery (the
 * message again, on its own subject) and each reply (on an inbox).
 */
const KINDS: Array<[RegExp, string]> = [
  [/^_INBOX\./, 'replies (requests, KV writes, publish acks, gets)'],
  [/^\$KV\.([^.]+)\..*/, '$KV.$1'],
  [/^\$JS\.API\.DIRECT\.GET\.([^.]+).*/, 'direct get $1'],
  [/^\$JS\.API\.CONSUMER\.MSG\.NEXT\..*/, 'pull requests'],
  [/^\$JS\.ACK\..*/, 'acks'],
  [/^\$JS\.EVENT\..*/, 'JetStream advisories'],
  [/^\$JS\.API\.([A-Z]+\.[A-Z]+)\..*/, 'JetStream API $1'],
  [/^job\.events\.[^.]+\.progress$/, 'job.events.<job>.progress'],
  [/^job\.events\..*/, 'job.events.<job>'],
  [/^jobs\.active\..*/, 'jobs.active.<job>'],
];
const kindOf = (subject: string): string => {
  for (const [pattern, kind] of KINDS) {
    const match = pattern.exec(subject);
    if (match) return kind.replace(/\$(\d)/g, (_all, group: string) => match[Number(group)] ?? '');
  }
  return subject;
};

/** Messages per job by kind, most first. */
function formatCensus(census: Map<string, number>, jobs: number): string {
  const total = [...census.values()].reduce((sum, count) => sum + count, 0);
  const rows = [...census].sort((a, b) => b[1] - a[1]).map(([kind, count]) => `  ${(count / jobs).toFixed(2).padStart(7)}  ${kind}`);
  return `\nevery message from create to the end, per job (${jobs} jobs): ${(total / jobs).toFixed(1)}\n${rows.join('\n')}\n`;
}

function milestoneMs(trace: Traced, milestone: (typeof MILESTONES)[number]): number | undefined {
  const matching = trace.passed.filter((message) => milestone.subject.test(message.subject));
  return (milestone.last ? matching[matching.length - 1] : matching[0])?.atMs;
}

async function natsUrlOf(startedUrl: string | undefined, givenUrl: string | undefined): Promise<string> {
  if (startedUrl) return startedUrl;
  if (givenUrl) return givenUrl;
  const lookup = findLocalEndpoints(process.env);
  if (!lookup.found || lookup.stale) throw new Error('no running `make up` found (.transmute/endpoints.json); start one, or pass --start or --nats');
  return lookup.endpoints.natsUrl;
}

/** The file each traced job converts. */
interface TraceSample {
  bytes: Buffer;
  from: string;
  to: string;
}

/** The throughput benchmark's 10-page DOCX, made by the engines in a directory of its own. */
async function benchDocx(): Promise<TraceSample> {
  const dir = await mkdtemp(join(tmpdir(), 'transmute-bench-trace-'));
  try {
    return { bytes: (await writeBenchDocx(dir)).bytes, from: 'docx', to: 'pdf' };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function traceOne(nats: NatsConnection, baseUrl: string, apiKey: string, sample: TraceSample, index: number, census?: Map<string, number>): Promise<Traced> {
  const passed: Passed[] = [];
  let began = 0;
  const tracer = nats.subscribe('>', {
    callback: (_error, message) => {
      if (census) {
        const kind = kindOf(message.subject);
        census.set(kind, (census.get(kind) ?? 0) + 1);
      }
      if (began) passed.push({ atMs: performance.now() - began, subject: message.subject, bytes: message.data.length });
    },
  });
  try {
    await nats.flush();
    const outcome = await runEventJob(baseUrl, apiKey, base64Job(sample.bytes, sample.from, sample.to, `bench-trace-${index}`), JOB_TIMEOUT_MS, () => (began = performance.now()));
    if (!outcome.ok) throw new Error(outcome.error);
    return { totalMs: outcome.latencyMs, passed };
  } finally {
    tracer.unsubscribe();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { jobs: { type: 'string' }, docx: { type: 'boolean', default: false }, start: { type: 'boolean', default: false }, nats: { type: 'string' } },
    strict: true,
  });
  const jobs = positiveInteger('jobs', values.jobs, 40);
  const target = await openBenchTarget(values.start ?? false, { name: 'bench-trace', families: values.docx ? ['document'] : ['image'] });
  let failed = true;
  const nats = await connect({ servers: await natsUrlOf(target.started?.infra.natsUrl, values.nats ?? process.env['TRANSMUTE_NATS_URL']), name: 'bench-trace' });
  try {
    const sample: TraceSample = values.docx ? await benchDocx() : { bytes: (await gradientPng(256, 256)).bytes, from: 'png', to: 'jpg' };
    const label = values.docx ? 'DOCX' : 'small';
    const traces: Traced[] = [];
    const census = new Map<string, number>();
    // One untimed job first: the converter's first conversion loads its codecs.
    await traceOne(nats, target.client.baseUrl, target.apiKey, sample, 0);
    for (let index = 1; index <= jobs; index++) traces.push(await traceOne(nats, target.client.baseUrl, target.apiKey, sample, index, census));
    process.stdout.write(`\n${jobs} ${label} jobs one at a time; ms after the complete-upload request was sent (medians):\n`);
    for (const milestone of MILESTONES) {
      const times = traces.map((trace) => milestoneMs(trace, milestone)).filter((ms): ms is number => ms !== undefined);
      process.stdout.write(`  ${milestone.name.padEnd(52)} ${times.length ? median(times).toFixed(2).padStart(7) : '    n/a'}\n`);
    }
    process.stdout.write(
      `  ${'job.finished read by the client'.padEnd(52)} ${median(traces.map((trace) => trace.totalMs))
        .toFixed(2)
        .padStart(7)}\n`,
    );
    const middle = [...traces].sort((a, b) => a.totalMs - b.totalMs)[Math.floor(traces.length / 2)]!;
    process.stdout.write(`\nthe median job, every message (${middle.totalMs.toFixed(1)} ms to job.finished at the client):\n`);
    for (const message of middle.passed) {
      if (message.atMs > middle.totalMs) break;
      process.stdout.write(`  +${message.atMs.toFixed(2).padStart(7)}  ${message.subject.slice(0, 72).padEnd(72)} ${String(message.bytes).padStart(6)} B\n`);
    }
    process.stdout.write(formatCensus(census, jobs));
    failed = false;
  } finally {
    await nats.close();
    await target.stop(failed);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:trace: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
