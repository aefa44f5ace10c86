import { Injectable, Logger } from '@nestjs/common';
import { Counter } from 'prom-client';
import { TERMINAL_TASK_STATUSES } from '@transmute/contracts';
import type { LiveJob, LiveTask } from '../store/live-job';
import { JobStore } from '../store/job-store';
import { slotHolder } from './account-token';
import { ConvertSlots } from './convert-slots';
import { WaitingLine } from './waiting-line';

const parked = new Counter({ name: 'transmute_converts_parked_total', help: "Convert tasks that waited for a slot of their account's plan allowance" });
const staleHolders = new Counter({ name: 'transmute_convert_slots_reclaimed_total', help: 'Convert slots freed by the sweep (a release lost to a crash)' });

/** The most stale entries one look at a line drops before it gives up until the next one. */
const MAX_SERVED_PER_PROMOTION = 64;
/** A slot of a task that has not ended, taken this recently, may belong to a promotion still publishing it: the sweep leaves it. */
const RECLAIM_AFTER_MS = 60_000;

const decodeToken = (token: string): string => Buffer.from(token, 'hex').toString();

/**
 * Fair scheduling across accounts (docs/decisions.md, "Fair scheduling"):
 * an account runs at most its plan allowance of converts at once, across
 * every replica; the rest wait in the account's own line, in order, and
 * never in the converters' queue, so one account's thousands of waiting
 * converts sit in front of nobody else's. Decides only; the JobDriver
 * publishes.
 */
@Injectable()
export class FairDispatch {
  private readonly logger = new Logger(FairDispatch.name);

  constructor(
    private readonly slots: ConvertSlots,
    private readonly line: WaitingLine,
    private readonly store: JobStore,
  ) {}

  /**
   * Whether a claimed convert may go to its pool now. When not, it has joined
   * its account's line, and the caller records it as parked. A task that
   * holds its slot already (a re-dispatch) always may; a newcomer queues
   * behind anyone of its account already waiting.
   */
  async admit(job: LiveJob, task: LiveTask): Promise<boolean> {
    const cap = job.convertAllowance;
    if (!cap) return true;
    const holder = slotHolder(job.id, task.name);
    const waiting = await this.line.head(job.accountId);
    if ((!waiting || holder in (await this.slots.holders(job.accountId))) && (await this.slots.acquire(job.accountId, holder, cap))) return true;
    await this.line.join(job.accountId, { jobId: job.id, task: task.name, attempt: task.attempt });
    parked.inc();
    return false;
  }

  /** Frees the slots of converts that ended; true when one was freed (the account's line may move). */
  async release(job: LiveJob, taskNames: readonly string[]): Promise<boolean> {
    let freed = false;
    for (const name of taskNames) if (await this.slots.release(job.accountId, slotHolder(job.id, name))) freed = true;
    return freed;
  }

  /**
   * The head of the account's line, once it holds a slot: the job and task to
   * publish, and the entry to remove once published. Entries whose task no
   * longer waits (its job ended, a newer attempt) are dropped on the way.
   * Null when nobody waits or no slot is free.
   */
  async nextToServe(accountId: string): Promise<{ job: LiveJob; task: string; seq: number } | null> {
    for (let dropped = 0; dropped < MAX_SERVED_PER_PROMOTION; dropped += 1) {
      const head = await this.line.head(accountId);
      if (!head) return null;
      const job = await this.store.get(head.entry.jobId);
      const task = job?.tasks[head.entry.task];
      // Joined the line and not yet recorded as parked (or unparked, not yet published): whoever is
      // doing that looks at the line again once it is written. Dropping the entry now would leave a
      // task parked with no place in any line, waiting for ever.
      if (task?.status === 'queued' && task.attempt === head.entry.attempt && !task.parkedAt && task.publishedAt === null) return null;
      if (!job || !task || task.status !== 'queued' || !task.parkedAt || task.attempt !== head.entry.attempt) {
        await this.line.remove(head.seq);
        continue;
      }
      const holder = slotHolder(job.id, task.name);
      if (!(await this.slots.acquire(accountId, holder, job.convertAllowance ?? Number.POSITIVE_INFINITY))) return null;
      // Another replica may have served this entry since it was read, and the task run and end: its own
      // release came before this take, and nobody would free the slot for a minute (the sweep). A task
      // ends in its job's write before its slot is released, so a fresh read tells.
      const now = (await this.store.get(job.id))?.tasks[task.name];
      if (!now || TERMINAL_TASK_STATUSES.includes(now.status)) {
        await this.slots.release(accountId, holder);
        await this.line.remove(head.seq);
        continue;
      }
      return { job, task: task.name, seq: head.seq };
    }
    return null;
  }

  async served(seq: number): Promise<void> {
    await this.line.remove(seq);
  }

  /** Accounts with converts waiting, for the sweep. */
  async waitingAccounts(): Promise<string[]> {
    return [...(await this.line.lines()).keys()].map(decodeToken);
  }

  /**
   * Frees slots whose holder no longer runs (its release was lost to a crash
   * or a NATS outage between the job's write and the release): at once when
   * the task ended, which never needs a slot again; once the holder is stale
   * when the job is gone or the task waits (a promotion may be publishing
   * it). Returns the accounts that got a slot back.
   */
  async reclaimStaleSlots(now = Date.now()): Promise<string[]> {
    const freedFor: string[] = [];
    for (const token of await this.slots.accountTokens()) {
      const accountId = decodeToken(token);
      for (const [holder, since] of Object.entries(await this.slots.holders(accountId))) {
        const [jobId, name] = [holder.slice(0, holder.indexOf('.')), holder.slice(holder.indexOf('.') + 1)];
        const task = (await this.store.get(jobId))?.tasks[name];
        const ended = task !== undefined && TERMINAL_TASK_STATUSES.includes(task.status);
        if (!ended && now - since < RECLAIM_AFTER_MS) continue;
        const running = task !== undefined && !ended && !task.parkedAt;
        if (running) continue;
        if (await this.slots.release(accountId, holder)) {
          staleHolders.inc();
          this.logger.warn({ accountId, holder }, 'freed a convert slot whose task no longer runs');
          freedFor.push(accountId);
        }
      }
    }
    return [...new Set(freedFor)];
  }
}

/** Converts of `before` that ended in `after`: their slots are free. */
export function endedConverts(before: LiveJob, after: LiveJob): string[] {
  return Object.values(after.tasks)
    .filter(
      (task) => task.operation === 'convert' && TERMINAL_TASK_STATUSES.includes(task.status) && !TERMINAL_TASK_STATUSES.includes(before.tasks[task.name]?.status ?? task.status),
    )
    .map((task) => task.name);
}
