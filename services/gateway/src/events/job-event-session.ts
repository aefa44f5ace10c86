import type { Job } from '@transmute/contracts';
import { isTerminal } from './sse';

/** A job as the event log holds it: the stream sequence is the event id. */
export interface StampedJob {
  seq: number;
  job: Job;
}

export interface SessionSink {
  emit(seq: number, job: Job): void;
  end(): void;
}

/**
 * What one open stream sends, whatever order the sources deliver in: the
 * current job first, then only later events (by sequence) that change the
 * status; it ends after a terminal status. Events arrive from the live
 * follower, from a replay, and from the store's current state, and overlap.
 */
export class JobEventSession {
  private lastSeq = 0;
  private lastStatus: string | undefined;
  private ended = false;

  constructor(private readonly sink: SessionSink) {}

  get isEnded(): boolean {
    return this.ended;
  }

  /** The first event: the job as it is now, numbered with the latest event the log held before it was read. */
  start(seq: number, job: Job): void {
    this.send(seq, job);
  }

  /** A reconnect: the client already has event `seq` (status `status`, unknown for 0); nothing is sent for it. */
  resumeAfter(seq: number, status: string | undefined): void {
    this.lastSeq = seq;
    this.lastStatus = status;
  }

  /** A later event: sent when newer than anything sent and a real change of status. */
  offer(event: StampedJob): void {
    if (this.ended || event.seq <= this.lastSeq) return;
    if (event.job.status === this.lastStatus) {
      this.lastSeq = event.seq;
      return;
    }
    this.send(event.seq, event.job);
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
    this.send(Math.max(seq, this.lastSeq), job);
  }

  /** Whether the job read from the store shows a status the stream has not sent. */
  lagsBehind(job: Job): boolean {
    return !this.ended && job.status !== this.lastStatus;
  }

  private send(seq: number, job: Job): void {
    this.lastSeq = Math.max(this.lastSeq, seq);
    this.lastStatus = job.status;
    this.sink.emit(seq, job);
    if (isTerminal(job.status)) {
      this.ended = true;
      this.sink.end();
    }
  }
}
