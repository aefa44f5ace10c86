import {
  type JobStatus,
  RUNNING_JOB_STATUSES,
  RUNNING_TASK_STATUSES,
  TERMINAL_JOB_STATUSES,
  type TaskStatus,
  WAITING_TASK_STATUSES,
  isImportOperation,
} from '@transmute/contracts';
import type { LiveJob, LiveTask, StoredOutput } from '../store/live-job';

/** What an event may carry into the fields it sets. */
export interface TransitionInput {
  now: number;
  /** The attempt the caller saw: the move is refused when the task has been dispatched again since. */
  attempt?: number;
  deadlineMs?: number;
  output?: StoredOutput | null;
  result?: Record<string, unknown> | null;
  error?: string;
  progress?: number;
}

interface Transition<S extends string, R> {
  /** Empty for `create`: the record does not exist before it. */
  from: readonly S[];
  /** The states the move may lead to; the first is taken unless the caller names one of them. */
  to: readonly S[];
  set: (record: R, input: TransitionInput) => Partial<R>;
  /** Bookkeeping no client sees: `updatedAt` stays, so the last event still equals the job as read. */
  silent?: true;
  /**
   * A worker's report on one attempt: the move needs the attempt it reports
   * on, and is refused unless that is the task's current attempt (a report
   * from an attempt the task has been dispatched past is stale).
   */
  reportsOn?: 'attempt';
}

const failure = (input: TransitionInput) => ({ error: input.error || 'unknown error' });
const idle: readonly TaskStatus[] = [...WAITING_TASK_STATUSES, 'queued'];

/**
 * Every move a task can make: event -> allowed from-states -> to-state ->
 * fields set. Nothing else writes a task's status.
 */
export const TASK_TRANSITIONS = {
  /** The job was created: an upload waits for its bytes, another import for complete-upload, the rest for their inputs. */
  create: { from: [], to: WAITING_TASK_STATUSES, set: (_task, input) => ({ attempt: 0, createdAt: input.now }) },
  /** Handed to a worker pool: a new attempt with a deadline to start. */
  dispatch: {
    from: WAITING_TASK_STATUSES,
    to: ['queued'],
    set: (task, input) => ({ attempt: task.attempt + 1, deadlineAt: input.now + (input.deadlineMs ?? 0), publishedAt: null, progress: null }),
  },
  /** Its work message is in the stream: from now on it waits for a worker, up to the dispatch deadline. */
  confirm: {
    from: ['queued'],
    to: ['queued'],
    set: (_task, input) => ({ publishedAt: input.now, deadlineAt: input.now + (input.deadlineMs ?? 0) }),
    silent: true,
  },
  /** Missed its deadline: handed out again (reconciler). */
  redispatch: {
    from: RUNNING_TASK_STATUSES,
    to: ['queued'],
    set: (task, input) => ({ attempt: task.attempt + 1, deadlineAt: input.now + (input.deadlineMs ?? 0), publishedAt: null, progress: null }),
  },
  /** Its account runs all the converts its plan allows: it waits in the account's line, with no deadline (fair scheduling). */
  park: {
    from: ['queued'],
    to: ['queued'],
    set: (_task, input) => ({ parkedAt: input.now, publishedAt: null, deadlineAt: null }),
    silent: true,
  },
  /** A slot came free: claimed again for publishing, like a fresh dispatch of the same attempt. */
  unpark: {
    from: ['queued'],
    to: ['queued'],
    set: (_task, input) => ({ parkedAt: null, publishedAt: null, deadlineAt: input.now + (input.deadlineMs ?? 0) }),
    silent: true,
  },
  start: { from: ['queued'], to: ['processing'], set: (_task, input) => ({ deadlineAt: input.now + (input.deadlineMs ?? 0) }), reportsOn: 'attempt' },
  /** A progress report shows the task running (it may overtake its `started`) and pushes its deadline on. */
  progress: {
    from: RUNNING_TASK_STATUSES,
    to: ['processing'],
    set: (_task, input) => ({ progress: input.progress ?? null, deadlineAt: input.now + (input.deadlineMs ?? 0) }),
    reportsOn: 'attempt',
  },
  succeed: {
    from: RUNNING_TASK_STATUSES,
    to: ['finished'],
    set: (_task, input) => ({ deadlineAt: null, output: input.output ?? null, result: input.result ?? null }),
    reportsOn: 'attempt',
  },
  fail: { from: RUNNING_TASK_STATUSES, to: ['failed'], set: (_task, input) => ({ deadlineAt: null, result: failure(input) }), reportsOn: 'attempt' },
  /** The account's allowance refused the run (a first dispatch or a later one). */
  refuse: { from: [...WAITING_TASK_STATUSES, ...RUNNING_TASK_STATUSES], to: ['failed'], set: (_task, input) => ({ deadlineAt: null, result: failure(input) }) },
  /** No worker completed it within the attempts allowed. */
  abandon: { from: RUNNING_TASK_STATUSES, to: ['failed'], set: (_task, input) => ({ deadlineAt: null, result: failure(input) }) },
  /**
   * An import whose bytes are already in storage (the signed upload, a base64
   * file the gateway stored) is finished when the job starts, from what the
   * store says of the file: no worker has anything left to bring in.
   */
  receive: {
    from: ['waiting_upload', 'waiting'],
    to: ['finished'],
    set: (_task, input) => ({ deadlineAt: null, output: input.output ?? null, result: input.result ?? null }),
  },
  /** export/url: its links are signed here when its inputs finish; no worker has anything to do. */
  link: { from: ['waiting_input'], to: ['finished'], set: (_task, input) => ({ deadlineAt: null, result: input.result ?? null }) },
  /** export/webhook: nothing runs now; the dispatcher notifies the target once the job ends. */
  settle: { from: ['waiting_input'], to: ['finished'], set: () => ({}) },
  /** The job ended before the task ran. */
  cancel: { from: idle, to: ['cancelled'], set: () => ({ deadlineAt: null }) },
} as const satisfies Record<string, Transition<TaskStatus, LiveTask>>;

/** Every move a job can make. Its status otherwise follows its tasks (see deriveJobStatus). */
export const JOB_TRANSITIONS = {
  /** jobs.create: the job waits for complete-upload (also when it only fetches), as the spec's table says. */
  create: { from: [], to: ['waiting_upload'], set: (_job, input) => ({ createdAt: input.now, startedAt: null, endedAt: null, error: '' }) },
  /** complete-upload. */
  start: { from: ['waiting_upload'], to: ['queued'], set: (_job, input) => ({ startedAt: input.now }) },
  /** Its tasks moved on. */
  advance: { from: RUNNING_JOB_STATUSES, to: RUNNING_JOB_STATUSES, set: () => ({ error: '' }) },
  /** The end: what follows it (events, webhooks, history) is owed until finalize. */
  end: {
    from: RUNNING_JOB_STATUSES,
    to: TERMINAL_JOB_STATUSES,
    set: (_job, input) => ({ endedAt: input.now, finalized: false, error: input.error ?? '' }),
  },
  /** What follows the end is done; the credentials in the specs are erased. */
  finalize: { from: TERMINAL_JOB_STATUSES, to: TERMINAL_JOB_STATUSES, set: () => ({ finalized: true }), silent: true },
} as const satisfies Record<string, Transition<JobStatus, LiveJob>>;

export type TaskEvent = keyof typeof TASK_TRANSITIONS;
export type JobEvent = keyof typeof JOB_TRANSITIONS;
/** Events that move an existing record (all but `create`). */
export type TaskMove = Exclude<TaskEvent, 'create'>;
export type JobMove = Exclude<JobEvent, 'create'>;

function move<S extends string, R extends { status: S; updatedAt: number }>(record: R, transition: Transition<S, R>, input: TransitionInput, to: S | undefined): R | null {
  if (!transition.from.includes(record.status)) return null;
  const target = to ?? transition.to[0]!;
  if (!transition.to.includes(target)) return null;
  return { ...record, ...transition.set(record, input), status: target, updatedAt: transition.silent ? record.updatedAt : input.now };
}

/** The task after `event`, or null when the table refuses the move (wrong state, or a report on a superseded attempt). */
export function moveTask(task: LiveTask, event: TaskMove, input: TransitionInput): LiveTask | null {
  const transition: Transition<TaskStatus, LiveTask> = TASK_TRANSITIONS[event];
  if (transition.reportsOn && input.attempt === undefined) throw new Error(`a ${event} report must name the attempt it reports on`);
  if (input.attempt !== undefined && input.attempt !== task.attempt) return null;
  return move<TaskStatus, LiveTask>(task, transition, input, undefined);
}

/** The job after `event` (to `to` where the event allows several), or null when the table refuses. */
export function moveJob(job: LiveJob, event: JobMove, input: TransitionInput, to?: JobStatus): LiveJob | null {
  if (event === 'finalize') {
    // Finalisation closes the end that happened; it never changes it.
    if (to !== undefined && to !== job.status) return null;
    to = job.status;
  }
  return move<JobStatus, LiveJob>(job, JOB_TRANSITIONS[event], input, to);
}

/** The status a task of this operation is born in. */
export function firstTaskStatus(operation: string): TaskStatus {
  if (operation === 'import/upload') return 'waiting_upload';
  return isImportOperation(operation) ? 'waiting' : 'waiting_input';
}

/** A new task: the `create` move, into the first status of its operation. */
export function createTask(fields: Omit<LiveTask, 'status' | 'attempt' | 'createdAt' | 'updatedAt'>, input: TransitionInput): LiveTask {
  return born<TaskStatus, LiveTask>(fields, TASK_TRANSITIONS.create, input, firstTaskStatus(fields.operation));
}

/** A new job: the `create` move. */
export function createJob(fields: Omit<LiveJob, 'status' | 'createdAt' | 'updatedAt' | 'startedAt' | 'endedAt' | 'error'>, input: TransitionInput): LiveJob {
  return born<JobStatus, LiveJob>(fields, JOB_TRANSITIONS.create, input, 'waiting_upload');
}

function born<S extends string, R extends { status: S; updatedAt: number }>(
  fields: Omit<R, 'status' | 'updatedAt'> | object,
  transition: Transition<S, R>,
  input: TransitionInput,
  to: S,
): R {
  if (transition.from.length !== 0 || !transition.to.includes(to)) throw new Error(`a record cannot be created in ${to}`);
  const record = { ...fields, status: to, updatedAt: input.now } as R;
  return { ...record, ...transition.set(record, input), status: to, updatedAt: input.now };
}
