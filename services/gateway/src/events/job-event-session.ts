import { timestampMs } from '@bufbuild/protobuf/wkt';
import type { Job } from '@transmute/contracts';
import { isTerminal } from './sse';

/** A status change, or a running convert's progress (docs/events.md). */
export type EventKind = 'status' | 'progress';

/** A job as the event log holds it: the stream sequence is the event id. */
export interface StampedJob {
  seq: number;
  job: Job;
  /** Absent: a status change. */
  kind?: EventKind;
}

export interface SessionSink {
  emit(seq: number, job: Job, kind: EventKind): void;
  end(): void;
}

/** When the job or any of its tasks last changed: a progress report moves a task and leaves the job's own updatedAt. */
const changedAt = (job: Job): number => Math.max(...[job.updatedAt, ...job.tasks.map((task) => task.updatedAt)].map((stamp) => (stamp ? timestampMs(stamp) : 0)));

/**
 * What one open stream sends, whatever order the sources deliver in: the
 * current job first, then only later events (by sequence) that change the
 * status, and progress events that show a newer state of the same status;
 * it ends after a terminal status. Events arrive from the live follower,
 * from a replay, and from the store's current state, and overlap. The same
 * log read from the same point gives the same events, so a resumed stream
 * continues exactly where the first one stopped.
 */
export class JobEventSession {
  private lastSeq = 0;
  private lastStatus: string | undefined;
  /** When the job last sent had changed: a progress event is sent only if newer. */
  private lastChangedAt = 0;
  private ended = false;

  constructor(private readonly sink: SessionSink) {}

  get isEnded(): boolean {
    return this.ended;
  }

  /** The first event: the job as it is now, numbered with the latest event the log held before it was read. */
  start(seq: number, job: Job): void {
    this.send(seq, job, 'status');
  }

  /** A reconnect: the client already has event `seq` (its job, unknown for 0); nothing is sent for it. */
  resumeAfter(seq: number, job: Job | undefined): void {
    this.lastSeq = seq;
    this.lastStatus = job?.status;
    this.lastChangedAt = job ? changedAt(job) : 0;
  }

  /**
   * A later event: a status event when newer than anything sent and a real
   * change of status; a progress event when newer and of the status last
   * sent (one of another status is stale, or ahead of a status change the
   * log still brings).
   */
  offer(event: StampedJob): void {
    if (this.ended || event.seq <= this.lastSeq) return;
    if (event.kind === 'progress') {
      if (event.job.status === this.lastStatus && changedAt(event.job) > this.lastChangedAt) this.send(event.seq, event.job, 'progress');
      return;
    }
    if (event.job.status === this.lastStatus) {
      this.lastSeq = event.seq;
      return;
    }
    this.send(event.seq, event.job, 'status');
  }

  /** The sequence of the last event sent or passed over; a caller can tell whether anything arrived since. */
  get position(): number {
    return this.lastSeq;
  }

  /**
   * After a replay: the store's current job, when the log has not brought its
   * status. The log is written just after the store, so callers first give
   * the live event a moment; `ifStillAt` makes this a no-op once anything
   * newer arrived (the job read earlier would then be stale).
   */
  catchUp(seq: number, job: Job, ifStillAt = this.lastSeq): void {
    if (this.ended || job.status === this.lastStatus || this.lastSeq !== ifStillAt) return;
    this.send(Math.max(seq, this.lastSeq), job, 'status');
  }

  /** Whether the job read from the store shows a status the stream has not sent. */
  lagsBehind(job: Job): boolean {
    return !this.ended && job.status !== this.lastStatus;
  }

  private send(seq: number, job: Job, kind: EventKind): void {
    this.lastSeq = Math.max(this.lastSeq, seq);
    this.lastStatus = job.status;
    this.lastChangedAt = Math.max(this.lastChangedAt, changedAt(job));
    this.sink.emit(seq, job, kind);
    if (isTerminal(job.status)) {
      this.ended = true;
      this.sink.end();
    }
  }
}
