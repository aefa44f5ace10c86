import { create } from '@bufbuild/protobuf';
import { type Job, JobSchema } from '@transmute/contracts';
import { JobEventSession } from './job-event-session';

const job = (status: string): Job => create(JobSchema, { id: 'f'.repeat(32), status });

function recorder() {
  const sent: Array<[number, string]> = [];
  let ended = 0;
  const session = new JobEventSession({ emit: (seq, current) => sent.push([seq, current.status]), end: () => (ended += 1) });
  return { session, sent, ended: () => ended };
}

describe('JobEventSession', () => {
  it('sends the current job first, then each later status change in order, and ends at the terminal one', () => {
    const { session, sent, ended } = recorder();
    session.start(4, job('queued'));
    session.offer({ seq: 5, job: job('converting') });
    session.offer({ seq: 7, job: job('processing') });
    session.offer({ seq: 9, job: job('finished') });
    session.offer({ seq: 10, job: job('finished') });

    expect(sent).toEqual([
      [4, 'queued'],
      [5, 'converting'],
      [7, 'processing'],
      [9, 'finished'],
    ]);
    expect(ended()).toBe(1);
    expect(session.isEnded).toBe(true);
  });

  it.each([
    ['an event older than the first one', { seq: 3, job: job('converting') }],
    ['an event the current state already shows', { seq: 5, job: job('queued') }],
  ])('drops %s', (_name, event) => {
    const { session, sent } = recorder();
    session.start(4, job('queued'));
    session.offer(event);
    expect(sent).toEqual([[4, 'queued']]);
  });

  it('ends at once when the job is already over', () => {
    const { session, sent, ended } = recorder();
    session.start(12, job('failed'));
    session.offer({ seq: 13, job: job('failed') });
    expect(sent).toEqual([[12, 'failed']]);
    expect(ended()).toBe(1);
  });

  it("on resume sends only what came after the client's last event, then the current state if the log lacked it", () => {
    const { session, sent } = recorder();
    session.resumeAfter(5, 'queued');
    session.offer({ seq: 5, job: job('queued') });
    session.offer({ seq: 6, job: job('converting') });
    session.catchUp(6, job('converting'));
    session.offer({ seq: 8, job: job('finished') });
    expect(sent).toEqual([
      [6, 'converting'],
      [8, 'finished'],
    ]);

    const overtaken = recorder();
    overtaken.session.resumeAfter(5, 'queued');
    const position = overtaken.session.position;
    expect(overtaken.session.lagsBehind(job('processing'))).toBe(true);
    overtaken.session.offer({ seq: 9, job: job('converting') });
    overtaken.session.catchUp(5, job('processing'), position);
    expect(overtaken.sent).toEqual([[9, 'converting']]);

    const lagging = recorder();
    lagging.session.resumeAfter(5, 'queued');
    lagging.session.catchUp(5, job('processing'));
    expect(lagging.sent).toEqual([[5, 'processing']]);
  });
});
