import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { LocalPlatform } from '../support/platform';
import { startLocalPlatform } from '../support/platform';
import { ChaosClient } from './chaos-client';
import { type JobContext, type JobOutcome, planJob, pollUntilEnded, runJob } from './chaos-jobs';
import { type ChaosReport, chaosPassed, faultImpacts, reasonOf, storedOutputs, webhookFindings } from './chaos-report';
import { chaosSamples } from './chaos-samples';
import { type FaultName, type FaultRecord, checkFaults, defaultFaults, injectFault } from './fault-injector';
import { SourceServer, WebhookReceiver } from './loopback-servers';

export interface ChaosOptions {
  jobs: number;
  concurrency: number;
  /** Faults in order; undefined: every service, every converter family, NATS, the store. */
  faults?: FaultName[];
  /** How long a killed service stays down before it is started again. */
  downMs: number;
  /** How long one job may take before the run stops waiting for it in its slot (it is waited for again at the end). */
  jobTimeoutMs: number;
  /** After the last job was run: how long the stragglers may take to end. */
  drainMs: number;
  /** No new job or fault after this long; the accepted jobs then still get `drainMs` to end. */
  timeLimitMs: number;
  /** Progress lines on stderr. */
  log?: (line: string) => void;
}

export const CHAOS_FAMILIES = ['image', 'audio', 'document', 'archive'];

/** What the platform runs with under chaos: loopback targets allowed, redelivery and webhook retries compressed. */
export const CHAOS_ENV: Record<string, string> = {
  // The url imports and the webhook receiver are on loopback.
  TRANSMUTE_ALLOW_PRIVATE_NETWORKS: 'true',
  // A task held by a killed worker comes back after this long (default 30 s).
  TRANSMUTE_ACK_WAIT_MS: '10000',
  TRANSMUTE_WEBHOOK_RETRY_SCHEDULE_MS: '0,1000,2000,5000,10000',
  TRANSMUTE_OFFICE_POOL_SIZE: '1',
};

/**
 * How long the last webhooks may take after the last job ended: the
 * dispatcher's ack wait (the attempt timeout, 10 s by default, + 20 s), after
 * which a delivery whose ack or nak died with NATS comes back, then the
 * compressed schedule's longest step (10 s), and some slack.
 */
const WEBHOOK_SETTLE_MS = 45_000;

/**
 * `pnpm chaos`: starts its own platform (four converter families), runs
 * `jobs` mixed jobs `concurrency` at a time while it kills and restarts each
 * fault in turn, waits for every accepted job to end, and reports what was
 * lost or duplicated. Loopback only; bounded by `timeLimitMs`.
 */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const log = options.log ?? (() => undefined);
  const startedAt = Date.now();
  const hardStop = startedAt + options.timeLimitMs;
  const samples = await chaosSamples();
  const sources = new SourceServer(new Map(Object.values(samples).map((sample) => [sample.filename, sample.bytes])));
  const receiver = new WebhookReceiver();
  await Promise.all([sources.start(), receiver.start()]);
  let local: LocalPlatform | undefined;
  let keepFiles = true;
  try {
    log('starting the platform');
    local = await startLocalPlatform({ name: 'chaos', families: CHAOS_FAMILIES, extraEnv: CHAOS_ENV });
    const { platform, infra } = local;
    const faults = options.faults ?? defaultFaults(platform);
    checkFaults(faults, platform);
    const client = new ChaosClient(platform.baseUrl, platform.devApiKey);
    const outcomes: JobOutcome[] = [];
    const endTimes: number[] = [];
    let accepted = 0;
    let next = 0;
    let jobsDone = false;
    let faultDue: (() => void) | undefined;
    const context: JobContext = {
      client,
      samples,
      sources,
      receiver,
      jobTimeoutMs: options.jobTimeoutMs,
      pollIntervalMs: 500,
      onProgress: (event) => {
        if (event === 'ended') endTimes.push(Date.now());
        else {
          accepted += 1;
          faultDue?.();
        }
      },
    };

    // Faults spread over the run: fault k when (k+1)/(F+1) of the jobs were accepted, one at a time.
    const records: FaultRecord[] = [];
    const faultsDone = (async () => {
      for (const [index, fault] of faults.entries()) {
        const threshold = Math.ceil(((index + 1) * options.jobs) / (faults.length + 1));
        if (accepted < threshold && Date.now() < hardStop) {
          await new Promise<void>((resolve) => {
            faultDue = () => {
              if (accepted >= threshold || Date.now() >= hardStop) resolve();
            };
            // All jobs may already have been tried (some not accepted): do not wait for a threshold that never comes.
            const timer = setInterval(() => {
              if (jobsDone || Date.now() >= hardStop) {
                clearInterval(timer);
                resolve();
              }
            }, 500);
          });
          faultDue = undefined;
        }
        log(`fault ${index + 1}/${faults.length}: killing ${fault} (${accepted} jobs accepted, ${endTimes.length} ended)`);
        const record = await injectFault(fault, options.downMs, platform, infra);
        records.push(record);
        log(`fault ${fault}: ${record.error ? `ERROR ${record.error}` : `ready again after ${record.readyAt! - record.killedAt} ms`}`);
      }
    })();

    const slot = async () => {
      while (next < options.jobs && Date.now() < hardStop) {
        const plan = planJob(next++);
        const outcome = await runJob(plan, context);
        outcomes.push(outcome);
        if (outcomes.length % 50 === 0) log(`${outcomes.length}/${options.jobs} jobs run, ${accepted} accepted, ${endTimes.length} ended`);
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, slot));
    jobsDone = true;
    await faultsDone;

    // Stragglers: every accepted job that has not ended is waited for, at most drainMs, even past the time limit.
    const drainDeadline = Date.now() + options.drainMs;
    const open = outcomes.filter((outcome) => outcome.jobId && !outcome.status);
    log(`draining ${open.length} accepted jobs that have not ended yet`);
    await Promise.all(open.map((outcome) => pollUntilEnded(outcome, context, drainDeadline)));
    // Webhooks of the last jobs are still on their way; one held by a dispatcher when NATS went away comes back after the ack wait.
    const waitedFrom = Date.now();
    const missingHooks = () => webhookFindings(outcomes, receiver, records).missing;
    if (missingHooks() > 0) log(`waiting up to ${WEBHOOK_SETTLE_MS / 1000} s for ${missingHooks()} webhook(s) still on their way`);
    while (missingHooks() > 0 && Date.now() - waitedFrom < WEBHOOK_SETTLE_MS) await new Promise((resolve) => setTimeout(resolve, 250));
    log(`webhooks: ${missingHooks()} still missing after ${((Date.now() - waitedFrom) / 1000).toFixed(1)} s`);

    const jobIds = outcomes.flatMap((outcome) => (outcome.jobId ? [outcome.jobId] : []));
    const stored = await storedOutputs(join(local.rootDir, 'data', 'storage'), jobIds);
    const hooks = webhookFindings(outcomes, receiver, records);
    // Every job has ended: a task directory still here belongs to a converter that was killed and not cleared after.
    // The converters' scratch space is this run's own (devstack puts it under the platform's data).
    const scratchLeft = await entriesIn(local.platform.env['TRANSMUTE_WORK_DIR']);
    const failedReasons: Record<string, number> = {};
    for (const outcome of outcomes.filter((candidate) => candidate.status === 'failed')) {
      const reason = reasonOf(outcome.error ?? '');
      failedReasons[reason] = (failedReasons[reason] ?? 0) + 1;
    }
    const notAcceptedReasons: Record<string, number> = {};
    for (const outcome of outcomes.filter((candidate) => candidate.notAccepted)) {
      const reason = reasonOf(outcome.notAccepted!);
      notAcceptedReasons[reason] = (notAcceptedReasons[reason] ?? 0) + 1;
    }
    const lost = outcomes.filter((outcome) => outcome.jobId && !outcome.status);
    const report: ChaosReport = {
      planned: options.jobs,
      accepted: jobIds.length,
      notAccepted: outcomes.filter((outcome) => outcome.notAccepted).length + (options.jobs - outcomes.length),
      notAcceptedReasons,
      finished: outcomes.filter((outcome) => outcome.status === 'finished').length,
      failed: outcomes.filter((outcome) => outcome.status === 'failed').length,
      failedReasons,
      lost: lost.length,
      lostJobs: lost.map((outcome) => `${outcome.jobId} (${outcome.plan.kind}/${outcome.plan.importMode}${outcome.error ? `; ${outcome.error}` : ''})`),
      duplicateOutputs: stored.duplicates,
      partialFiles: stored.partials,
      scratchLeft,
      duplicateWebhooks: hooks.duplicates,
      webhooksResentAfterKill: hooks.resentAfterKill,
      missingWebhooks: hooks.missing,
      faults: faultImpacts(records, endTimes, Math.max(...endTimes, startedAt)),
      clientRetries: client.retries,
      clientResends: client.resends,
      elapsedMs: Date.now() - startedAt,
      logDir: local.logDir,
      rootDir: local.rootDir,
    };
    keepFiles = !chaosPassed(report);
    return report;
  } finally {
    // A run that lost or duplicated something keeps its logs, storage and database for a look.
    await local?.stop({ keepFiles }).catch(() => undefined);
    await Promise.all([sources.stop(), receiver.stop()]);
  }
}

/** How many entries the converters' work directory holds; it exists once any convert ran, as one always does here. */
async function entriesIn(directory: string | undefined): Promise<number> {
  if (!directory) throw new Error('the platform names no converter work directory (TRANSMUTE_WORK_DIR)');
  return (await readdir(directory)).length;
}
