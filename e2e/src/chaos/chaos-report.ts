import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { JobOutcome } from './chaos-jobs';
import type { FaultRecord } from './fault-injector';
import type { WebhookReceiver } from './loopback-servers';
import { webhookRepeats } from './webhook-repeats';

export interface FaultImpact {
  fault: string;
  /** Kill to ready again. */
  downMs?: number;
  /** The longest stretch without any job ending, from the kill until the next fault (or the end of the run). */
  heldUpMs: number;
  error?: string;
}

export interface ChaosReport {
  planned: number;
  accepted: number;
  notAccepted: number;
  /** Why creation did not end in 201 (ids and numbers blanked). */
  notAcceptedReasons: Record<string, number>;
  finished: number;
  failed: number;
  failedReasons: Record<string, number>;
  /** Accepted but never ended: must be 0. */
  lost: number;
  lostJobs: string[];
  /** Convert tasks with more than one stored output: must be 0. */
  duplicateOutputs: number;
  /** Half-written files left by killed converters (storage garbage, not outputs). */
  partialFiles: number;
  /** Task scratch directories left once every job ended (a killed converter's, not removed by its next start): must be 0. */
  scratchLeft: number;
  /** Delivery ids the receiver acknowledged more than once, other than those below: must be 0. */
  duplicateWebhooks: number;
  /** The same attempt received again because the dispatcher was killed before recording it (at least once, as documented). */
  webhooksResentAfterKill: number;
  /** Ended jobs with a webhook target whose delivery never arrived. */
  missingWebhooks: number;
  faults: FaultImpact[];
  clientRetries: number;
  /** Uploads sent again after complete-upload said the bytes had not arrived. */
  clientResends: number;
  elapsedMs: number;
  /** Service logs of the run (kept when it did not pass). */
  logDir: string;
  /** Everything of the run, kept when it did not pass: logs, storage, the converters' scratch space, the store. */
  rootDir: string;
}

/** Nothing accepted was lost, nothing was produced or delivered twice, no scratch was left, and every fault was injected. */
export function chaosPassed(report: ChaosReport): boolean {
  return (
    report.lost === 0 &&
    report.duplicateOutputs === 0 &&
    report.duplicateWebhooks === 0 &&
    report.missingWebhooks === 0 &&
    report.scratchLeft === 0 &&
    report.faults.every((fault) => !fault.error)
  );
}

/** A failure message with its ids and numbers blanked, so the same reason on many jobs is counted once. */
export function reasonOf(error: string): string {
  return error
    .replace(/[0-9a-f]{32}/g, '<id>')
    .replace(/\d+(\.\d+)?/g, 'N')
    .slice(0, 160);
}

/** For each fault, the longest gap between job ends from its kill to the next fault's kill (or the run's end). */
export function faultImpacts(faults: readonly FaultRecord[], endTimes: readonly number[], runEnd: number): FaultImpact[] {
  const ends = [...endTimes].sort((a, b) => a - b);
  return faults.map((fault, index) => {
    const windowEnd = faults[index + 1]?.killedAt ?? runEnd;
    let previous = fault.killedAt;
    let heldUpMs = 0;
    for (const end of ends) {
      if (end <= fault.killedAt) continue;
      if (end > windowEnd) break;
      heldUpMs = Math.max(heldUpMs, end - previous);
      previous = end;
    }
    heldUpMs = Math.max(heldUpMs, Math.min(windowEnd, runEnd) - previous);
    return {
      fault: fault.fault,
      ...(fault.readyAt !== undefined && { downMs: fault.readyAt - fault.killedAt }),
      heldUpMs,
      ...(fault.error !== undefined && { error: fault.error }),
    };
  });
}

/**
 * Convert outputs stored more than once for one task (fs storage:
 * `<root>/jobs/<jobId>/convert/<file>`), and half-written files a killed
 * converter left behind (`<file>.partial-<hex>`: garbage, not an output).
 */
export async function storedOutputs(storageRoot: string, jobIds: readonly string[]): Promise<{ duplicates: number; partials: number }> {
  let duplicates = 0;
  let partials = 0;
  for (const jobId of jobIds) {
    const files = await readdir(join(storageRoot, 'jobs', jobId, 'convert')).catch(() => [] as string[]);
    const complete = files.filter((name) => !/\.partial-[0-9a-f]+$/.test(name));
    partials += files.length - complete.length;
    if (complete.length > 1) duplicates += complete.length - 1;
  }
  return { duplicates, partials };
}

export function webhookFindings(
  outcomes: readonly JobOutcome[],
  receiver: WebhookReceiver,
  faults: readonly FaultRecord[],
): { duplicates: number; resentAfterKill: number; missing: number } {
  const deliveredJobs = new Set(receiver.received.map((delivery) => delivery.jobId));
  const missing = outcomes.filter((outcome) => outcome.status && outcome.plan.webhook !== 'none' && !deliveredJobs.has(outcome.jobId!)).length;
  const repeats = webhookRepeats(receiver.received, faults);
  return { duplicates: repeats.unexplained.length, resentAfterKill: repeats.resentAfterDispatcherKill.length, missing };
}

export function formatReport(report: ChaosReport): string {
  const seconds = (ms: number | undefined) => (ms === undefined ? '-' : `${(ms / 1000).toFixed(1)} s`);
  const lines = [
    `chaos: ${report.planned} jobs planned in ${seconds(report.elapsedMs)} (${report.clientRetries} client retries while services were down, ${report.clientResends} uploads sent again)`,
    `  accepted            ${report.accepted}`,
    `  not accepted        ${report.notAccepted}`,
    ...Object.entries(report.notAcceptedReasons)
      .sort((a, b) => b[1] - a[1])
      .map(([reason, count]) => `      ${String(count).padStart(5)}  ${reason}`),
    `  finished            ${report.finished}`,
    `  failed              ${report.failed}`,
    ...Object.entries(report.failedReasons)
      .sort((a, b) => b[1] - a[1])
      .map(([reason, count]) => `      ${String(count).padStart(5)}  ${reason}`),
    `  LOST                ${report.lost}${report.lostJobs.length ? `  (${report.lostJobs.slice(0, 10).join(', ')}${report.lostJobs.length > 10 ? ', ...' : ''})` : ''}`,
    `  duplicate outputs   ${report.duplicateOutputs}`,
    `  partial files left  ${report.partialFiles} (half-written by killed converters)`,
    `  scratch left        ${report.scratchLeft} (task directories of killed converters, not removed by their next start)`,
    `  duplicate webhooks  ${report.duplicateWebhooks} (delivery ids acknowledged more than once)`,
    `  resent after kill   ${report.webhooksResentAfterKill} (an attempt answered just before its dispatcher was killed, not yet recorded: at least once, as documented)`,
    `  missing webhooks    ${report.missingWebhooks}`,
    '  faults (kill -> ready; longest stretch without a job ending):',
    ...(report.faults.length === 0 ? ['    (none)'] : []),
    ...report.faults.map(
      (fault) =>
        `    ${fault.fault.padEnd(22)} down ${seconds(fault.downMs).padStart(7)}   held up ${seconds(fault.heldUpMs).padStart(7)}${fault.error ? `   ERROR ${fault.error}` : ''}`,
    ),
  ];
  lines.push(
    chaosPassed(report)
      ? 'PASS: nothing lost, nothing duplicated, every webhook delivered, no scratch left'
      : `FAIL: see the logs in ${report.logDir}; storage and scratch space kept under ${report.rootDir}/data`,
  );
  return lines.join('\n');
}
