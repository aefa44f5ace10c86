import { Inject, Injectable, Logger } from '@nestjs/common';
import { toJson } from '@bufbuild/protobuf';
import { TaskResultSchema } from '@transmute/contracts';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { DownloadLinks } from '@transmute/storage';
import type { OrchestratorConfig } from '../config';
import { JobEventLog } from '../events/job-event-log';
import { progressWorthAnnouncing } from '../events/progress-events';
import { FairDispatch, endedConverts } from '../fairness/fair-dispatch';
import { JobFinalizer } from '../jobs/job-finalizer';
import { toJobMessage } from '../jobs/job-view';
import { type Preparation, type WalkSettings, type Walked, walk } from '../state/job-walk';
import { moveTask } from '../state/transitions';
import type { LiveJob } from '../store/live-job';
import { JobStore } from '../store/job-store';
import { DispatchPreparer } from './dispatch-preparer';
import { WorkSender } from './work-sender';

/** A change to apply before the walk; null when it does not apply (already applied, or refused by the table). */
export type JobChange = (job: LiveJob, now: number) => LiveJob | null;

/** A claimed task whose work message is not confirmed after this long is published again (same attempt). */
export const CLAIM_DEADLINE_MS = 10_000;
/** Each round prepares the converts the last one found ready; a chain of converts needs one per link at most. */
const MAX_ROUNDS = 8;

/**
 * The one way a job moves: a change (an outcome, a start, a re-dispatch) and
 * the graph walk that follows it are written together in one compare-and-set;
 * then whatever the step owes is done: publish the claimed work, record the
 * status change, finish off an end. A crash in between is healed by the
 * outcome's redelivery or by the reconciler.
 */
@Injectable()
export class JobDriver {
  private readonly logger = new Logger(JobDriver.name);

  constructor(
    private readonly store: JobStore,
    private readonly preparer: DispatchPreparer,
    private readonly sender: WorkSender,
    private readonly events: JobEventLog,
    private readonly finalizer: JobFinalizer,
    private readonly links: DownloadLinks,
    private readonly fairness: FairDispatch,
    @Inject(SERVICE_CONFIG) private readonly config: OrchestratorConfig,
  ) {}

  /** The job as stored after the step; null when there is no such job. */
  async step(jobId: string, change?: JobChange): Promise<LiveJob | null> {
    const preparations = new Map<string, Preparation>();
    let pending = change;
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const now = Date.now();
      const stepped = await this.store.mutate(jobId, (job) => {
        const changed = pending?.(job, now) ?? null;
        const walked = walk(changed ?? job, { now, claimDeadlineMs: CLAIM_DEADLINE_MS, preparations, exportLinks: this.exportLinks });
        return { job: changed || walked.changed ? walked.job : null, result: { walked, before: job } };
      });
      if (!stepped) return null;
      pending = undefined;
      const { walked, before } = stepped.result;
      // What this step owes (its event, its work) and what the next round needs (a charge) do not wait for
      // each other; the next write waits for both, so its events still follow this step's.
      const [owed, prepared] = await Promise.allSettled([
        stepped.written ? this.afterStep(before, stepped.job, walked) : undefined,
        this.prepareAll(stepped.job, walked.unprepared, preparations),
      ]);
      if (owed.status === 'rejected') throw owed.reason;
      if (prepared.status === 'rejected') throw prepared.reason;
      if (walked.unprepared.length === 0) return stepped.job;
    }
    return this.store.get(jobId);
  }

  private async prepareAll(job: LiveJob, names: readonly string[], preparations: Map<string, Preparation>): Promise<void> {
    for (const name of names) {
      const task = job.tasks[name];
      if (task && !preparations.has(name)) preparations.set(name, await this.preparer.prepare(job, task));
    }
  }

  private readonly exportLinks: WalkSettings['exportLinks'] = (task, files, accountId, now) =>
    toJson(TaskResultSchema, this.links.exportResult(task.name, files, accountId, now)) as Record<string, unknown>;

  /**
   * Publishes the given tasks' current attempts and records them as sent. A
   * convert whose account already runs all its plan allows is not
   * published: it joins the account's line and is recorded as parked, until
   * a slot comes free (fair scheduling).
   */
  async send(job: LiveJob, names: readonly string[]): Promise<void> {
    if (names.length === 0) return;
    const parked: string[] = [];
    for (const name of names) {
      const task = job.tasks[name];
      if (task?.operation === 'convert' && !(await this.fairness.admit(job, task))) {
        parked.push(name);
        continue;
      }
      await this.sender.send(job, name);
    }
    const attempts = new Map(names.map((name) => [name, job.tasks[name]?.attempt]));
    await this.store.mutate(job.id, (current) => {
      const now = Date.now();
      const tasks = { ...current.tasks };
      let moved = 0;
      for (const [name, attempt] of attempts) {
        const task = tasks[name];
        const next = task && moveTask(task, parked.includes(name) ? 'park' : 'confirm', { now, attempt, deadlineMs: this.config.dispatchDeadlineMs });
        if (next) {
          tasks[name] = next;
          moved += 1;
        }
      }
      return { job: moved > 0 ? { ...current, tasks } : null, result: moved };
    });
    // A slot may have come free while these joined the line: nobody else would notice until the sweep.
    if (parked.length > 0) await this.promote(job.accountId);
  }

  /**
   * Publishes the account's waiting converts, oldest first, while it has
   * slots free. Any replica may call it at any time: the slots are a
   * compare-and-set, and a task published twice is one message (its id).
   */
  async promote(accountId: string): Promise<void> {
    for (let next = await this.fairness.nextToServe(accountId); next; next = await this.fairness.nextToServe(accountId)) {
      const { job, task, seq } = next;
      const attempt = job.tasks[task]?.attempt;
      const claimed = await this.store.mutate(job.id, (current) => {
        const waiting = current.tasks[task];
        const moved = waiting?.parkedAt ? moveTask(waiting, 'unpark', { now: Date.now(), attempt, deadlineMs: CLAIM_DEADLINE_MS }) : null;
        return { job: moved ? { ...current, tasks: { ...current.tasks, [task]: moved } } : null, result: moved !== null };
      });
      if (claimed?.result) await this.send(claimed.job, [task]);
      await this.fairness.served(seq);
    }
  }

  /**
   * Once the step is stored, nothing it owes may undo it: a publish or a
   * finalisation that fails here is healed by the reconciler (an unconfirmed
   * claim, a job left `finalized: false`), so the failure is logged, not thrown.
   */
  private async afterStep(before: LiveJob, after: LiveJob, walked: Walked): Promise<void> {
    // Announced before the claimed work goes out: the worker's reports move the job on, and their events must come after this one.
    await this.announce(before, after, walked);
    const claimed = Object.values(after.tasks)
      .filter((task) => task.status === 'queued' && task.publishedAt === null && task.attempt !== before.tasks[task.name]?.attempt)
      .map((task) => task.name);
    await this.send(after, claimed).catch((error: unknown) =>
      this.logger.warn({ err: error, jobId: after.id, tasks: claimed }, 'dispatch not confirmed; the reconciler publishes it again'),
    );
    // Last, once the end is recorded: the account's next convert starts after this one is seen to end.
    const ended = endedConverts(before, after);
    if (ended.length > 0) {
      await this.fairness
        .release(after, ended)
        .then((freed) => (freed ? this.promote(after.accountId) : undefined))
        .catch((error: unknown) => this.logger.warn({ err: error, jobId: after.id, tasks: ended }, 'convert slots not released; the sweep frees them'));
    }
  }

  /** The step's end, status change or progress band, for the event log. */
  private async announce(before: LiveJob, after: LiveJob, walked: Walked): Promise<void> {
    if (walked.ended) {
      await this.finalizer.finalize(after).catch((error: unknown) => this.logger.warn({ err: error, jobId: after.id }, 'finalisation not complete; the reconciler finishes it'));
    } else if (before.status !== after.status) {
      await this.events.append(toJobMessage(after));
    } else if (progressWorthAnnouncing(before, after)) {
      await this.events.appendProgress(toJobMessage(after));
    }
  }
}
