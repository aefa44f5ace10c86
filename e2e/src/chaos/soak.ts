/**
 * `pnpm soak`: the platform at a steady load for a long time (one hour by
 * default), checking that no service grows without bound. Not part of CI.
 *
 *   node e2e/dist/chaos/soak.js [--duration-s S (3600)] [--concurrency N (4)]
 *     [--warm-up-s S (120)] [--rss-growth-pct P (50)] [--rss-slack-mb M (32)] [--fd-slack N (64)]
 *
 * Starts its own NATS, FerretDB and platform (image, audio, document, archive
 * converters) and keeps N mixed jobs running (the chaos run's jobs, no
 * faults). Each service's RSS (VmRSS, /proc/<pid>/status) and open handles
 * (/proc/<pid>/fd) are read after the warm-up and at the end; a service whose
 * RSS grew past start x (1 + P%) + M MiB, or whose handles grew by more than
 * N, fails the run (exit 1), as does any job that failed or did not end.
 */
import { parseArgs } from 'node:util';
import { startLocalPlatform } from '../support/platform';
import { ChaosClient } from './chaos-client';
import { type JobContext, type JobOutcome, planJob, runJob } from './chaos-jobs';
import { CHAOS_ENV, CHAOS_FAMILIES } from './chaos-run';
import { chaosSamples } from './chaos-samples';
import { SourceServer, WebhookReceiver } from './loopback-servers';
import { runScript } from './run-script';
import { type GrowthBound, type ProcessUsage, formatVerdicts, judgeGrowth, processUsage } from './process-usage';

interface SoakOptions {
  durationMs: number;
  warmUpMs: number;
  concurrency: number;
  bound: GrowthBound;
}

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} expects a number >= 0, got ${JSON.stringify(raw)}`);
  return value;
}

function soakOptions(argv: string[]): SoakOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      'duration-s': { type: 'string' },
      'warm-up-s': { type: 'string' },
      concurrency: { type: 'string' },
      'rss-growth-pct': { type: 'string' },
      'rss-slack-mb': { type: 'string' },
      'fd-slack': { type: 'string' },
    },
    strict: true,
  });
  return {
    durationMs: positive('duration-s', values['duration-s'], 3_600) * 1_000,
    warmUpMs: positive('warm-up-s', values['warm-up-s'], 120) * 1_000,
    concurrency: Math.max(1, Math.round(positive('concurrency', values.concurrency, 4))),
    bound: {
      rssGrowthRatio: positive('rss-growth-pct', values['rss-growth-pct'], 50) / 100,
      rssSlackMb: positive('rss-slack-mb', values['rss-slack-mb'], 32),
      openFilesSlack: positive('fd-slack', values['fd-slack'], 64),
    },
  };
}

const log = (line: string) => process.stderr.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

async function sample(services: ReadonlyArray<{ name: string; pid: number | undefined }>): Promise<Map<string, ProcessUsage>> {
  const usage = new Map<string, ProcessUsage>();
  for (const service of services) {
    const found = service.pid === undefined ? undefined : await processUsage(service.pid);
    if (found) usage.set(service.name, found);
  }
  return usage;
}

async function main(): Promise<number> {
  const options = soakOptions(process.argv.slice(2));
  const samples = await chaosSamples();
  const sources = new SourceServer(new Map(Object.values(samples).map((entry) => [entry.filename, entry.bytes])));
  const receiver = new WebhookReceiver();
  await Promise.all([sources.start(), receiver.start()]);
  log('starting the platform');
  const local = await startLocalPlatform({ name: 'soak', families: CHAOS_FAMILIES, extraEnv: CHAOS_ENV });
  let healthy = false;
  try {
    const { platform } = local;
    const client = new ChaosClient(platform.baseUrl, platform.devApiKey);
    const outcomes: JobOutcome[] = [];
    const context: JobContext = { client, samples, sources, receiver, jobTimeoutMs: 300_000, pollIntervalMs: 500, onProgress: () => undefined };
    const startedAt = Date.now();
    const endAt = startedAt + options.durationMs;
    let next = 0;
    const slot = async () => {
      while (Date.now() < endAt) outcomes.push(await runJob(planJob(next++), context));
    };
    const load = Promise.all(Array.from({ length: options.concurrency }, slot));

    await new Promise((resolve) => setTimeout(resolve, Math.min(options.warmUpMs, options.durationMs / 2)));
    const start = await sample(platform.services);
    log(`after the warm-up: ${outcomes.length} jobs run; sampling ${start.size} services again at the end (${Math.round((endAt - Date.now()) / 1000)} s)`);
    const progress = setInterval(() => log(`${outcomes.length} jobs run, ${outcomes.filter((outcome) => outcome.status === 'finished').length} finished`), 60_000);
    await load;
    clearInterval(progress);
    // Let the last jobs' work and connections settle before the second look.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const end = await sample(platform.services);

    const verdicts = [...start].map(([name, first]) =>
      judgeGrowth(name, first, end.get(name) ?? { rssKb: Number.POSITIVE_INFINITY, openFiles: Number.POSITIVE_INFINITY }, options.bound),
    );
    const finished = outcomes.filter((outcome) => outcome.status === 'finished').length;
    const failed = outcomes.filter((outcome) => outcome.status === 'failed');
    const unended = outcomes.filter((outcome) => outcome.jobId && !outcome.status).length;
    const minutes = (Date.now() - startedAt) / 60_000;
    process.stdout.write(
      [
        `soak: ${outcomes.length} jobs in ${minutes.toFixed(1)} min at ${options.concurrency} at a time: ${finished} finished, ${failed.length} failed, ${unended} did not end`,
        ...failed.slice(0, 5).map((outcome) => `  failed ${outcome.jobId}: ${outcome.error}`),
        `bound: RSS at most start x ${(1 + options.bound.rssGrowthRatio).toFixed(2)} + ${options.bound.rssSlackMb} MiB; open handles at most start + ${options.bound.openFilesSlack}`,
        formatVerdicts(verdicts),
      ].join('\n') + '\n',
    );
    healthy = verdicts.every((verdict) => verdict.ok) && failed.length === 0 && unended === 0 && verdicts.length === platform.services.length;
    process.stdout.write(healthy ? 'PASS\n' : `FAIL: logs kept in ${local.logDir}\n`);
    return healthy ? 0 : 1;
  } finally {
    await local.stop({ keepFiles: !healthy });
    await Promise.all([sources.stop(), receiver.stop()]);
  }
}

runScript(main);
