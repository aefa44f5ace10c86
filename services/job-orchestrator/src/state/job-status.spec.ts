import type { TaskState } from './job-status';
import { deriveJobStatus } from './job-status';

const task = (name: string, operation: string, status: TaskState['status'], error = ''): TaskState => ({ name, operation, status, error });

describe('deriveJobStatus', () => {
  it.each<[string, TaskState[], boolean, string]>([
    ['before complete-upload', [task('i', 'import/upload', 'waiting_upload'), task('c', 'convert', 'waiting_input')], false, 'waiting_upload'],
    ['imports queued', [task('i', 'import/upload', 'queued'), task('c', 'convert', 'waiting_input')], true, 'queued'],
    ['import running', [task('i', 'import/url', 'processing'), task('c', 'convert', 'waiting_input')], true, 'processing'],
    ['convert running', [task('i', 'import/url', 'finished'), task('c', 'convert', 'processing')], true, 'converting'],
    ['between steps', [task('i', 'import/url', 'finished'), task('c', 'convert', 'waiting_input')], true, 'processing'],
    ['all done', [task('i', 'import/url', 'finished'), task('c', 'convert', 'finished'), task('e', 'export/url', 'finished')], true, 'finished'],
    ['failed export does not fail the job', [task('c', 'convert', 'finished'), task('e', 'export/s3', 'failed', 'denied')], true, 'finished'],
    ['export still running', [task('c', 'convert', 'finished'), task('e', 'export/s3', 'processing')], true, 'processing'],
  ])('%s', (_name, tasks, started, expected) => {
    expect(deriveJobStatus(tasks, started).status).toBe(expected);
  });

  it('a failed convert fails the job and says why', () => {
    const derived = deriveJobStatus([task('i', 'import/url', 'finished'), task('c', 'convert', 'failed', 'corrupt input')], true);
    expect(derived).toEqual({ status: 'failed', error: 'task c failed: corrupt input' });
  });
});
