import { RUNNING_JOB_STATUSES, TERMINAL_JOB_STATUSES, WAITING_TASK_STATUSES } from '@transmute/contracts';
import type { LiveJob, LiveTask, StoredOutput } from '../store/live-job';
import { deriveJobStatus } from './job-status';
import { moveJob, moveTask } from './transitions';

/**
 * What a convert needs before it may be dispatched, found out ahead of the
 * compare-and-set because it takes a network call: the account's charge
 * (refused or not) and, for an input whose format was unknown at creation,
 * the family that converts it.
 */
export interface Preparation {
  refusal?: string;
  family?: string;
  inputFormat?: string;
}

export interface WalkSettings {
  now: number;
  /** How long a claimed task may wait for its work message to be confirmed before it is published again. */
  claimDeadlineMs: number;
  preparations: ReadonlyMap<string, Preparation>;
  /** An export/url task's result for the files its inputs produced (throws when there are none). */
  exportLinks: (task: LiveTask, files: StoredOutput[], accountId: string, now: number) => Record<string, unknown>;
}

export interface Walked {
  job: LiveJob;
  /** Tasks claimed by this step: their work is published once it is stored. */
  claimed: string[];
  /** Ready converts still waiting for their preparation. */
  unprepared: string[];
  /** Anything moved: a task or the job. */
  changed: boolean;
  statusChanged: boolean;
  ended: boolean;
}

/**
 * One step of a job's graph, pure: dispatches every waiting task whose inputs
 * have all finished, then moves the job to the status its tasks add up to,
 * cancelling what never ran when that is the end. Every move goes through the
 * transition table.
 */
export function walk(job: LiveJob, settings: WalkSettings): Walked {
  const tasks: Record<string, LiveTask> = { ...job.tasks };
  const claimed: string[] = [];
  const unprepared: string[] = [];
  let movedTasks = 0;
  const input = { now: settings.now, deadlineMs: settings.claimDeadlineMs };
  if (RUNNING_JOB_STATUSES.includes(job.status)) {
    for (const name of job.taskOrder) {
      const task = tasks[name];
      if (!task || !WAITING_TASK_STATUSES.includes(task.status)) continue;
      if (task.dependsOn.some((dependency) => tasks[dependency]?.status !== 'finished')) continue;
      let next: LiveTask | null;
      if (task.operation === 'export/webhook') {
        next = moveTask(task, 'settle', input);
      } else if (task.operation === 'export/url') {
        next = linked(task, tasks, job.accountId, settings);
      } else if (task.operation === 'convert') {
        const preparation = settings.preparations.get(name);
        if (!preparation) {
          unprepared.push(name);
          continue;
        }
        next = preparation.refusal
          ? moveTask(task, 'refuse', { ...input, error: preparation.refusal })
          : moveTask({ ...task, family: preparation.family ?? task.family, inputFormat: preparation.inputFormat ?? task.inputFormat }, 'dispatch', input);
      } else {
        next = moveTask(task, 'dispatch', input);
      }
      if (!next) continue;
      tasks[name] = next;
      movedTasks += 1;
      if (next.status === 'queued') claimed.push(name);
    }
  }
  const stepped = { ...job, tasks };
  const moved = settleStatus(stepped, settings.now);
  return {
    job: moved ?? stepped,
    claimed,
    unprepared,
    changed: movedTasks > 0 || moved !== null,
    statusChanged: moved !== null,
    ended: moved !== null && TERMINAL_JOB_STATUSES.includes(moved.status),
  };
}

/** An export/url task finished with its links, or failed when its inputs left no file to link. */
function linked(task: LiveTask, tasks: Record<string, LiveTask>, accountId: string, settings: WalkSettings): LiveTask | null {
  const files = task.dependsOn.map((dependency) => tasks[dependency]?.output).filter((output): output is StoredOutput => output != null);
  try {
    return moveTask(task, 'link', { now: settings.now, result: settings.exportLinks(task, files, accountId, settings.now) });
  } catch (error) {
    return moveTask(task, 'refuse', { now: settings.now, error: error instanceof Error ? error.message : String(error) });
  }
}

/** The job moved to the status its tasks add up to; null when it is there already or not running. */
function settleStatus(job: LiveJob, now: number): LiveJob | null {
  if (!RUNNING_JOB_STATUSES.includes(job.status)) return null;
  const states = Object.values(job.tasks).map((task) => ({ ...task, error: typeof task.result?.['error'] === 'string' ? task.result['error'] : '' }));
  const derived = deriveJobStatus(states, job.startedAt !== null);
  if (derived.status === job.status) return null;
  if (!TERMINAL_JOB_STATUSES.includes(derived.status)) return moveJob(job, 'advance', { now }, derived.status);
  const ended = moveJob(job, 'end', { now, error: derived.error }, derived.status);
  if (!ended) return null;
  const tasks = Object.fromEntries(Object.entries(ended.tasks).map(([name, task]) => [name, moveTask(task, 'cancel', { now }) ?? task]));
  return { ...ended, tasks };
}

/** Ready converts (inputs finished, still waiting) of a job as it stands. */
export function readyConverts(job: LiveJob): LiveTask[] {
  if (!RUNNING_JOB_STATUSES.includes(job.status)) return [];
  return job.taskOrder
    .map((name) => job.tasks[name])
    .filter(
      (task): task is LiveTask =>
        task !== undefined &&
        task.operation === 'convert' &&
        WAITING_TASK_STATUSES.includes(task.status) &&
        task.dependsOn.every((dependency) => job.tasks[dependency]?.status === 'finished'),
    );
}
