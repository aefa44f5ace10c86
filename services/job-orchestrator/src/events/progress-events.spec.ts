import type { LiveJob, LiveTask } from '../store/live-job';
import { progressWorthAnnouncing } from './progress-events';

const task = (fields: Partial<LiveTask>): LiveTask => ({
  name: 'convert',
  operation: 'convert',
  status: 'processing',
  dependsOn: ['in'],
  spec: null,
  inputFormat: 'mp4',
  outputFormat: 'webm',
  family: 'video',
  uploadKey: '',
  attempt: 1,
  progress: null,
  publishedAt: 1,
  deadlineAt: 2,
  output: null,
  result: null,
  createdAt: 0,
  updatedAt: 0,
  ...fields,
});
const job = (convert: Partial<LiveTask>, status: LiveJob['status'] = 'converting'): LiveJob => ({
  id: 'a'.repeat(32),
  accountId: 'acc',
  tag: '',
  status,
  webhookUrl: '',
  error: '',
  taskOrder: ['convert'],
  tasks: { convert: task(convert) },
  createdAt: 0,
  updatedAt: 0,
  startedAt: 0,
  endedAt: null,
});

describe('progressWorthAnnouncing', () => {
  it.each<[string, Partial<LiveTask>, Partial<LiveTask>, boolean]>([
    ['the first figure', { progress: null }, { progress: 3 }, true],
    ['a rise within the same 5 % band', { progress: 11 }, { progress: 14 }, false],
    ['a rise into the next band', { progress: 14 }, { progress: 15 }, true],
    ['a jump over several bands', { progress: 20 }, { progress: 47 }, true],
    ['the same figure again (a redelivered report)', { progress: 40 }, { progress: 40 }, false],
    ['a new attempt starting again', { progress: 60, attempt: 1 }, { progress: 2, attempt: 2 }, true],
    ['a task that is not running', { progress: 10 }, { progress: 20, status: 'finished' }, false],
  ])('%s', (_name, before, after, expected) => {
    expect(progressWorthAnnouncing(job(before), job(after))).toBe(expected);
  });

  it('leaves a step that changed the status to the status event', () => {
    expect(progressWorthAnnouncing(job({ progress: null, status: 'queued' }, 'queued'), job({ progress: 30 }, 'converting'))).toBe(false);
  });
});
