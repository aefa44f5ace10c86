import { create } from '@bufbuild/protobuf';
import { JobSchema, TaskResultSchema, TaskSchema } from '@transmute/contracts';
import { signatureHeader } from './signature';
import { webhookBody, webhookBodyBytes } from './webhook-body';

const job = create(JobSchema, {
  id: 'a'.repeat(32),
  status: 'finished',
  accountId: 'acct',
  tasks: [
    create(TaskSchema, { name: 'in', operation: 'import/url', status: 'finished' }),
    create(TaskSchema, { name: 'convert', operation: 'convert', status: 'finished', result: create(TaskResultSchema, { downloadUrl: 'https://x/d/1' }) }),
    create(TaskSchema, { name: 'out', operation: 'export/url', status: 'finished', result: create(TaskResultSchema, { url: 'https://x/d/2', filename: 'a.jpg' }) }),
  ],
});

describe('webhookBody', () => {
  it('keys tasks by name with operation, status and the public result', () => {
    expect(webhookBody('job.finished', job)).toEqual({
      event: 'job.finished',
      id: job.id,
      status: 'finished',
      tasks: {
        in: { operation: 'import/url', status: 'finished', result: null },
        convert: { operation: 'convert', status: 'finished', result: { download_url: 'https://x/d/1' } },
        out: { operation: 'export/url', status: 'finished', result: { url: 'https://x/d/2', filename: 'a.jpg' } },
      },
    });
  });

  it('adds the job error to job.failed', () => {
    const failed = create(JobSchema, { ...job, status: 'failed', error: 'task convert failed: bad input' });
    expect(webhookBody('job.failed', failed)).toMatchObject({ event: 'job.failed', status: 'failed', error: 'task convert failed: bad input' });
  });

  it('renders the same bytes every time, signed as sha256=<hex hmac>', () => {
    const bytes = webhookBodyBytes('job.finished', job);
    expect(webhookBodyBytes('job.finished', job).equals(bytes)).toBe(true);
    expect(signatureHeader('other', bytes)).not.toBe(signatureHeader('s3cret', bytes));
    // A value computed outside Node: printf '%s' '{"event":"job.finished","id":"a"}' | openssl dgst -sha256 -hmac s3cret
    expect(signatureHeader('s3cret', Buffer.from('{"event":"job.finished","id":"a"}'))).toBe('sha256=1693d288439015c971f39b82e0122ffaea6f9726ba3e97388e77a852bc4c88f7');
  });
});
