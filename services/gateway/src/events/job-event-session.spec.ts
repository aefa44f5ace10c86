import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { type Job, JobSchema, TaskSchema } from '@transmute/contracts';
import { type EventKind, JobEventSession, type StampedJob } from './job-event-session';

/** A job whose status changed at 0 and whose convert task last changed at `changedAtMs` (as a progress report leaves it). */
const job = (status: string, changedAtMs = 0): Job =>
  create(JobSchema, { id: 'f'.repeat(32), status, updatedAt: timestampFromMs(0), tasks: [create(TaskSchema, { name: 'convert', updatedAt: timestampFromMs(changedAtMs) })] });

function recorder() {
  const sent: Array<[number, string]> = [];
  const kinds: EventKind[] = [];
  let ended = 0;
  const session = new JobEventSession({
    emit: (seq, current, kind) => {
      sent.push([seq, current.status]);
      kinds.push(kind);
    },
    end: () => (ended += 1),
  });
  return { session, sent, kinds, ended: () => ended };
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
    session.resumeAfter(5, job('queued'));
    session.offer({ seq: 5, job: job('queued') });
    session.offer({ seq: 6, job: job('converting') });
    session.catchUp(6, job('converting'));
    session.offer({ seq: 8, job: job('finished') });
    expect(sent).toEqual([
      [6, 'converting'],
      [8, 'finished'],
    ]);

    const overtaken = recorder();
    overtaken.session.resumeAfter(5, job('queued'));
    const position = overtaken.session.position;
    expect(overtaken.session.lagsBehind(job('processing'))).toBe(true);
    overtaken.session.offer({ seq: 9, job: job('converting') });
    overtaken.session.catchUp(5, job('processing'), position);
    expect(overtaken.sent).toEqual([[9, 'converting']]);

    const lagging = recorder();
    lagging.session.resumeAfter(5, job('queued'));
    lagging.session.catchUp(5, job('processing'));
    expect(lagging.sent).toEqual([[5, 'processing']]);
  });

  describe('progress', () => {
    const progress = (seq: number, status: string, changedAtMs: number): StampedJob => ({ seq, job: job(status, changedAtMs), kind: 'progress' });
    /** A convert's life in the log: status changes and, between them, progress (ids are stream sequences). */
    const log: StampedJob[] = [
      { seq: 10, job: job('queued', 100) },
      { seq: 11, job: job('converting', 200) },
      progress(12, 'converting', 300),
      progress(14, 'converting', 400),
      progress(15, 'converting', 500),
      { seq: 17, job: job('finished', 600) },
    ];

    it('sends progress between status changes, named as progress', () => {
      const { session, sent, kinds } = recorder();
      session.start(9, job('waiting_upload', 50));
      for (const event of log) session.offer(event);
      expect(sent.map(([seq]) => seq)).toEqual([9, 10, 11, 12, 14, 15, 17]);
      expect(kinds).toEqual(['status', 'status', 'status', 'progress', 'progress', 'progress', 'status']);
    });

    it.each([
      ['of another status (stale, or ahead of its status change)', progress(12, 'queued', 300)],
      ['older than the job last sent', progress(12, 'converting', 150)],
      ['at or before the first event', progress(11, 'converting', 900)],
    ])('drops a progress event %s', (_name, event) => {
      const { session, sent } = recorder();
      session.start(11, job('converting', 200));
      session.offer(event);
      expect(sent).toEqual([[11, 'converting']]);
    });

    it('resumed after any event, sends exactly what the unbroken stream sent after it', () => {
      const unbroken = recorder();
      unbroken.session.start(9, job('waiting_upload', 50));
      for (const event of log) unbroken.session.offer(event);

      for (const [index, seen] of log.entries()) {
        const resumed = recorder();
        resumed.session.resumeAfter(seen.seq, seen.job);
        for (const event of log) resumed.session.offer(event);
        const expected = unbroken.sent.filter(([seq]) => seq > seen.seq);
        expect([index, resumed.sent]).toEqual([index, expected]);
      }
    });
  });
});
