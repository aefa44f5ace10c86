import { toJson } from '@bufbuild/protobuf';
import { TaskResultSchema } from '@transmute/contracts';
import { DownloadLinks, DownloadTokens } from '@transmute/storage';
import { job, task } from '../../test/live-job-builders';
import { type Preparation, type WalkSettings, readyConverts, walk } from './job-walk';

const NOW = 1_700_000_000_000;
const TOKEN_KEY = 'd'.repeat(32);
const links = new DownloadLinks({ downloadTokenKey: TOKEN_KEY, publicUrl: 'https://convert.example', fileRetentionSeconds: 3_600 });

const settings = (preparations: Record<string, Preparation> = {}): WalkSettings => ({
  now: NOW,
  claimDeadlineMs: 10_000,
  preparations: new Map(Object.entries(preparations)),
  exportLinks: (exported, files, accountId, now) => toJson(TaskResultSchema, links.exportResult(exported.name, files, accountId, now)) as Record<string, unknown>,
});

describe('walk', () => {
  it('claims the imports of a started job and leaves the rest waiting', () => {
    const walked = walk(job('queued', [task('in', 'import/upload', 'waiting_upload'), task('c', 'convert', 'waiting_input', ['in'])]), settings());
    expect(walked.claimed).toEqual(['in']);
    expect(walked.job.tasks['in']).toMatchObject({ status: 'queued', attempt: 1, deadlineAt: NOW + 10_000 });
    expect(walked.job.tasks['c']?.status).toBe('waiting_input');
    expect(walked.changed).toBe(true);
  });

  it('does nothing before complete-upload', () => {
    const walked = walk(job('waiting_upload', [task('in', 'import/upload', 'waiting_upload'), task('c', 'convert', 'waiting_input', ['in'])]), settings());
    expect(walked).toMatchObject({ claimed: [], changed: false, statusChanged: false });
  });

  it('holds a ready convert until it is prepared, then dispatches it with what the preparation learnt', () => {
    const ready = job('processing', [task('in', 'import/upload', 'finished'), task('c', 'convert', 'waiting_input', ['in'], '')]);
    expect(readyConverts(ready).map((t) => t.name)).toEqual(['c']);
    const unprepared = walk(ready, settings());
    expect(unprepared).toMatchObject({ claimed: [], unprepared: ['c'], changed: false });
    const prepared = walk(ready, settings({ c: { family: 'image', inputFormat: 'png' } }));
    expect(prepared.claimed).toEqual(['c']);
    expect(prepared.job.tasks['c']).toMatchObject({ status: 'queued', family: 'image', inputFormat: 'png' });
    expect(prepared.job.status).toBe('queued');
  });

  it('a refused convert fails, and with it the job, cancelling what never ran', () => {
    const walked = walk(
      job('processing', [task('in', 'import/upload', 'finished'), task('c', 'convert', 'waiting_input', ['in']), task('e', 'export/url', 'waiting_input', ['c'])]),
      settings({ c: { refusal: 'quota: monthly allowance used' } }),
    );
    expect(walked).toMatchObject({ ended: true, statusChanged: true, claimed: [] });
    expect(walked.job).toMatchObject({ status: 'failed', error: 'task c failed: quota: monthly allowance used', finalized: false, endedAt: NOW });
    expect(walked.job.tasks['e']?.status).toBe('cancelled');
  });

  it('settles an export/webhook without dispatching it, and ends the job when all is done', () => {
    const walked = walk(
      job('converting', [task('in', 'import/url', 'finished'), task('c', 'convert', 'finished', ['in']), task('w', 'export/webhook', 'waiting_input', ['c'])]),
      settings(),
    );
    expect(walked.claimed).toEqual([]);
    expect(walked.job.tasks['w']?.status).toBe('finished');
    expect(walked).toMatchObject({ ended: true, job: { status: 'finished' } });
  });

  it('moves the job to converting while a convert runs, and changes nothing when it is there already', () => {
    const running = job('processing', [task('in', 'import/url', 'finished'), task('c', 'convert', 'processing', ['in'])]);
    const walked = walk(running, settings());
    expect(walked).toMatchObject({ statusChanged: true, ended: false, job: { status: 'converting' } });
    expect(walk(walked.job, settings())).toMatchObject({ changed: false, statusChanged: false });
  });

  it('finishes an export/url with a signed link per input file, without dispatching it, and ends the job', () => {
    const walked = walk(
      job('converting', [task('in', 'import/url', 'finished'), task('c', 'convert', 'finished', ['in']), task('e', 'export/url', 'waiting_input', ['c'])]),
      settings(),
    );
    expect(walked.claimed).toEqual([]);
    expect(walked).toMatchObject({ ended: true, job: { status: 'finished' } });
    const exported = walked.job.tasks['e']!;
    expect(exported).toMatchObject({ status: 'finished', result: { filename: 'c.png', files: [{ filename: 'c.png' }] } });
    const url = exported.result!['url'] as string;
    expect((exported.result!['files'] as Array<{ url: string }>)[0]!.url).toBe(url);
    expect(url.startsWith('https://convert.example/v1/download/')).toBe(true);
    const grant = new DownloadTokens(TOKEN_KEY).verify(url.split('/').pop()!, NOW / 1000);
    expect(grant).toMatchObject({ key: 'k/c', filename: 'c.png', accountId: 'acc', expiresAtUnix: BigInt(NOW / 1000 + 3_600) });
  });

  it('fails an export/url whose inputs left no file, with the reason; the job still finishes, as for any failed export', () => {
    const noFile = { ...task('c', 'convert', 'finished', ['in']), output: null };
    const walked = walk(job('converting', [task('in', 'import/url', 'finished'), noFile, task('e', 'export/url', 'waiting_input', ['c'])]), settings());
    expect(walked.job.tasks['e']).toMatchObject({ status: 'failed', result: { error: 'export task e has no file to export' } });
    expect(walked).toMatchObject({ ended: true, job: { status: 'finished' } });
  });
});
