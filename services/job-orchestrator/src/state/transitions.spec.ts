import { JOB_STATUSES, type JobStatus, TASK_STATUSES, type TaskStatus } from '@transmute/contracts';
import type { LiveJob, LiveTask } from '../store/live-job';
import { JOB_TRANSITIONS, type JobEvent, TASK_TRANSITIONS, type TaskEvent, moveJob, moveTask } from './transitions';

const NOW = 1_700_000_000_000;

const task = (status: TaskStatus, attempt = 1): LiveTask => ({
  name: 't',
  operation: 'convert',
  status,
  dependsOn: [],
  spec: null,
  inputFormat: 'png',
  outputFormat: 'jpg',
  family: 'image',
  uploadKey: '',
  attempt,
  progress: null,
  publishedAt: null,
  deadlineAt: null,
  output: null,
  result: null,
  createdAt: 0,
  updatedAt: 0,
});

const job = (status: JobStatus): LiveJob => ({
  id: 'a'.repeat(32),
  accountId: 'acc',
  tag: '',
  status,
  webhookUrl: '',
  error: '',
  taskOrder: [],
  tasks: {},
  createdAt: 0,
  updatedAt: 0,
  startedAt: null,
  endedAt: null,
});

/** What each task move may lead to, written out by hand: the table must say the same. */
const EXPECTED_TASK_MOVES: Record<TaskEvent, [from: TaskStatus[], to: TaskStatus]> = {
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
  settle: [['waiting_input'], 'finished'],
  cancel: [['waiting_upload', 'waiting', 'waiting_input', 'queued'], 'cancelled'],
};

describe('the task transition table', () => {
  const cases = (Object.keys(TASK_TRANSITIONS) as TaskEvent[]).flatMap((event) => TASK_STATUSES.map((from) => [event, from] as const));

  it('lists exactly the events written out here', () => {
    expect(Object.keys(TASK_TRANSITIONS).sort()).toEqual(Object.keys(EXPECTED_TASK_MOVES).sort());
  });

  it.each(cases)('%s from %s: allowed only from its from-states, to its to-state', (event, from) => {
    const [allowed, to] = EXPECTED_TASK_MOVES[event];
    const moved = moveTask(task(from), event, { now: NOW, deadlineMs: 1_000, progress: 40, error: 'why' });
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

  it('records why a task failed, and what it produced when it succeeded', () => {
    expect(moveTask(task('processing'), 'fail', { now: NOW, error: 'corrupt input' })?.result).toEqual({ error: 'corrupt input' });
    expect(moveTask(task('processing'), 'fail', { now: NOW })?.result).toEqual({ error: 'unknown error' });
    const output = { key: 'k', filename: 'a.jpg', size: 3, format: 'jpg' };
    expect(moveTask(task('processing'), 'succeed', { now: NOW, output, result: { filename: 'a.jpg' } })).toMatchObject({ output, result: { filename: 'a.jpg' }, deadlineAt: null });
  });
});

/** What each job move may lead to. */
const EXPECTED_JOB_MOVES: Record<JobEvent, [from: JobStatus[], to: JobStatus[]]> = {
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
  const cases = (Object.keys(JOB_TRANSITIONS) as JobEvent[]).flatMap((event) => JOB_STATUSES.flatMap((from) => JOB_STATUSES.map((to) => [event, from, to] as const)));

  it('lists exactly the events written out here', () => {
    expect(Object.keys(JOB_TRANSITIONS).sort()).toEqual(Object.keys(EXPECTED_JOB_MOVES).sort());
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
