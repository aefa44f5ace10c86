import { JOB_STATUSES, type JobStatus, TASK_STATUSES, type TaskStatus } from '@transmute/contracts';
import { job as liveJob, task as liveTask } from '../../test/live-job-builders';
import type { LiveJob, LiveTask } from '../store/live-job';
import {
  JOB_TRANSITIONS,
  type JobEvent,
  type JobMove,
  TASK_TRANSITIONS,
  type TaskEvent,
  type TaskMove,
  createJob,
  createTask,
  firstTaskStatus,
  moveJob,
  moveTask,
} from './transitions';

const NOW = 1_700_000_000_000;

/** A convert task in `status`, without an output whatever its status. */
const task = (status: TaskStatus, attempt = 1): LiveTask => ({ ...liveTask('t', 'convert', status), attempt, output: null });
/** A job in `status` with no tasks and no start time. */
const job = (status: JobStatus): LiveJob => ({ ...liveJob(status, []), startedAt: null });

/** What each task move may lead to, written out by hand: the table must say the same. */
const EXPECTED_TASK_MOVES: Record<TaskMove, [from: TaskStatus[], to: TaskStatus]> = {
  dispatch: [['waiting_upload', 'waiting', 'waiting_input'], 'queued'],
  confirm: [['queued'], 'queued'],
  park: [['queued'], 'queued'],
  unpark: [['queued'], 'queued'],
  redispatch: [['queued', 'processing'], 'queued'],
  start: [['queued'], 'processing'],
  progress: [['queued', 'processing'], 'processing'],
  succeed: [['queued', 'processing'], 'finished'],
  fail: [['queued', 'processing'], 'failed'],
  refuse: [['waiting_upload', 'waiting', 'waiting_input', 'queued', 'processing'], 'failed'],
  abandon: [['queued', 'processing'], 'failed'],
  link: [['waiting_input'], 'finished'],
  settle: [['waiting_input'], 'finished'],
  receive: [['waiting_upload', 'waiting'], 'finished'],
  cancel: [['waiting_upload', 'waiting', 'waiting_input', 'queued'], 'cancelled'],
};

/** Events that are a worker's report on one attempt. */
const REPORTS: TaskMove[] = ['start', 'progress', 'succeed', 'fail'];

describe('the task transition table', () => {
  const moves = (Object.keys(TASK_TRANSITIONS) as TaskEvent[]).filter((event): event is TaskMove => event !== 'create');
  const cases = moves.flatMap((event) => TASK_STATUSES.map((from) => [event, from] as const));

  it('lists exactly the events written out here, and create', () => {
    expect(Object.keys(TASK_TRANSITIONS).sort()).toEqual([...Object.keys(EXPECTED_TASK_MOVES), 'create'].sort());
  });

  it.each(cases)('%s from %s: allowed only from its from-states, to its to-state', (event, from) => {
    const [allowed, to] = EXPECTED_TASK_MOVES[event];
    const moved = moveTask(task(from), event, { now: NOW, deadlineMs: 1_000, progress: 40, error: 'why', attempt: 1 });
    if (!allowed.includes(from)) {
      expect(moved).toBeNull();
      return;
    }
    // Confirming a dispatch, and waiting for a slot, are bookkeeping: the task as clients see it does not change.
    expect(moved).toMatchObject({ status: to, updatedAt: ['confirm', 'park', 'unpark'].includes(event) ? 0 : NOW });
  });

  it('a new attempt: dispatch and redispatch count it, set a deadline and forget the confirmation', () => {
    expect(moveTask({ ...task('waiting_input', 0), publishedAt: 5 }, 'dispatch', { now: NOW, deadlineMs: 10 })).toMatchObject({
      attempt: 1,
      deadlineAt: NOW + 10,
      publishedAt: null,
      progress: null,
    });
    expect(moveTask(task('processing', 2), 'redispatch', { now: NOW, deadlineMs: 10, attempt: 2 })).toMatchObject({ attempt: 3, status: 'queued' });
  });

  it('parks a convert without a deadline (waiting for a slot is no fault), and unparks it to be published again', () => {
    const parked = moveTask({ ...task('queued'), publishedAt: null, deadlineAt: NOW + 10_000 }, 'park', { now: NOW, attempt: 1 });
    expect(parked).toMatchObject({ status: 'queued', parkedAt: NOW, deadlineAt: null, publishedAt: null, attempt: 1 });
    expect(moveTask(parked!, 'unpark', { now: NOW + 5, attempt: 1, deadlineMs: 10_000 })).toMatchObject({
      parkedAt: null,
      publishedAt: null,
      deadlineAt: NOW + 10_005,
      attempt: 1,
    });
    expect(moveTask(parked!, 'unpark', { now: NOW + 5, attempt: 2 })).toBeNull();
  });

  it('refuses a move for an attempt that has been superseded', () => {
    expect(moveTask(task('processing', 3), 'redispatch', { now: NOW, attempt: 2 })).toBeNull();
    expect(moveTask(task('processing', 3), 'progress', { now: NOW, attempt: 2, progress: 50 })).toBeNull();
    expect(moveTask(task('processing', 3), 'progress', { now: NOW, attempt: 3, progress: 50 })).toMatchObject({ progress: 50 });
  });

  it.each(REPORTS.flatMap((event) => (['queued', 'processing'] as const).map((from) => [event, from] as const)))(
    'refuses a stale %s from %s: a report on an earlier attempt does not move the re-dispatched task',
    (event, from) => {
      const redispatched = task(from, 2);
      expect(moveTask(redispatched, event, { now: NOW, attempt: 1, error: 'left over', progress: 10 })).toBeNull();
      expect(moveTask(redispatched, event, { now: NOW, attempt: 3, error: 'from the future', progress: 10 })).toBeNull();
      // The current attempt moves it wherever the table lets that event move it from here.
      const current = moveTask(redispatched, event, { now: NOW, attempt: 2, error: 'current', progress: 10 });
      if (EXPECTED_TASK_MOVES[event][0].includes(from)) expect(current).not.toBeNull();
      else expect(current).toBeNull();
    },
  );

  it.each(REPORTS)('a %s report must name its attempt', (event) => {
    expect(() => moveTask(task('processing'), event, { now: NOW })).toThrow(`a ${event} report must name the attempt it reports on`);
  });

  it('records why a task failed, and what it produced when it succeeded', () => {
    expect(moveTask(task('processing'), 'fail', { now: NOW, attempt: 1, error: 'corrupt input' })?.result).toEqual({ error: 'corrupt input' });
    expect(moveTask(task('processing'), 'fail', { now: NOW, attempt: 1 })?.result).toEqual({ error: 'unknown error' });
    const output = { key: 'k', filename: 'a.jpg', size: 3, format: 'jpg' };
    expect(moveTask(task('processing'), 'succeed', { now: NOW, attempt: 1, output, result: { filename: 'a.jpg' } })).toMatchObject({
      output,
      result: { filename: 'a.jpg' },
      deadlineAt: null,
    });
  });

  it.each([
    ['import/upload', 'waiting_upload'],
    ['import/url', 'waiting'],
    ['import/s3', 'waiting'],
    ['convert', 'waiting_input'],
    ['export/url', 'waiting_input'],
    ['export/webhook', 'waiting_input'],
  ] as const)('create: a %s task is born %s, at attempt 0, stamped', (operation, status) => {
    expect(firstTaskStatus(operation)).toBe(status);
    const { status: _ignored, attempt: _attempt, createdAt: _created, updatedAt: _updated, ...fields } = { ...task('waiting'), operation };
    expect(createTask(fields, { now: NOW })).toEqual({ ...fields, status, attempt: 0, createdAt: NOW, updatedAt: NOW });
  });

  it('create is only a beginning: no existing task can take it', () => {
    expect(TASK_TRANSITIONS.create.from).toEqual([]);
    // @ts-expect-error create is not a move of an existing task
    expect(moveTask(task('waiting'), 'create', { now: NOW })).toBeNull();
  });
});

/** What each job move may lead to. */
const EXPECTED_JOB_MOVES: Record<JobMove, [from: JobStatus[], to: JobStatus[]]> = {
  start: [['waiting_upload'], ['queued']],
  advance: [
    ['queued', 'processing', 'converting'],
    ['queued', 'processing', 'converting'],
  ],
  end: [
    ['queued', 'processing', 'converting'],
    ['finished', 'failed'],
  ],
  finalize: [
    ['finished', 'failed'],
    ['finished', 'failed'],
  ],
};

describe('the job transition table', () => {
  const moves = (Object.keys(JOB_TRANSITIONS) as JobEvent[]).filter((event): event is JobMove => event !== 'create');
  const cases = moves.flatMap((event) => JOB_STATUSES.flatMap((from) => JOB_STATUSES.map((to) => [event, from, to] as const)));

  it('lists exactly the events written out here, and create', () => {
    expect(Object.keys(JOB_TRANSITIONS).sort()).toEqual([...Object.keys(EXPECTED_JOB_MOVES), 'create'].sort());
  });

  it('create: a job is born waiting_upload, stamped, with no start, end or error', () => {
    const { status: _s, createdAt: _c, updatedAt: _u, startedAt: _st, endedAt: _e, error: _err, ...fields } = job('queued');
    expect(createJob(fields, { now: NOW })).toEqual({ ...fields, status: 'waiting_upload', createdAt: NOW, updatedAt: NOW, startedAt: null, endedAt: null, error: '' });
    expect(JOB_TRANSITIONS.create.from).toEqual([]);
  });

  it.each(cases)('%s from %s to %s', (event, from, to) => {
    const [allowedFrom, allowedTo] = EXPECTED_JOB_MOVES[event];
    // finalize keeps the status: asking it for another is refused.
    const allowed = allowedFrom.includes(from) && allowedTo.includes(to) && (event !== 'finalize' || to === from);
    const moved = moveJob(job(from), event, { now: NOW, error: 'task c failed: x' }, to);
    if (!allowed) {
      expect(moved).toBeNull();
      return;
    }
    expect(moved).toMatchObject({ status: to, updatedAt: event === 'finalize' ? 0 : NOW });
  });

  it('start stamps the start; end stamps the end, records why, and owes the finalisation', () => {
    expect(moveJob(job('waiting_upload'), 'start', { now: NOW })).toMatchObject({ status: 'queued', startedAt: NOW });
    expect(moveJob(job('converting'), 'end', { now: NOW, error: 'task c failed: x' }, 'failed')).toMatchObject({
      status: 'failed',
      endedAt: NOW,
      finalized: false,
      error: 'task c failed: x',
    });
    expect(moveJob({ ...job('failed'), finalized: false }, 'finalize', { now: NOW })).toMatchObject({ status: 'failed', finalized: true });
  });

  it('a job ends once: a second end is refused', () => {
    const ended = moveJob(job('processing'), 'end', { now: NOW }, 'finished')!;
    expect(moveJob(ended, 'end', { now: NOW }, 'finished')).toBeNull();
    expect(moveJob(ended, 'end', { now: NOW }, 'failed')).toBeNull();
  });
});
