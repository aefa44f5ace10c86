import { job, task } from '../../test/live-job-builders';
import type { LiveJob, LiveTask } from '../store/live-job';
import { progressWorthAnnouncing } from './progress-events';

/** A video convert under way, with `fields` changed. */
const convert = (fields: Partial<LiveTask>): LiveTask => ({
  ...task('convert', 'convert', 'processing', ['in'], 'video'),
  inputFormat: 'mp4',
  outputFormat: 'webm',
  attempt: 1,
  publishedAt: 1,
  deadlineAt: 2,
  ...fields,
});
const jobOf = (fields: Partial<LiveTask>, status: LiveJob['status'] = 'converting'): LiveJob => ({ ...job(status, [convert(fields)]), startedAt: 0 });

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
    expect(progressWorthAnnouncing(jobOf(before), jobOf(after))).toBe(expected);
  });

  it('leaves a step that changed the status to the status event', () => {
    expect(progressWorthAnnouncing(jobOf({ progress: null, status: 'queued' }, 'queued'), jobOf({ progress: 30 }, 'converting'))).toBe(false);
  });
});
