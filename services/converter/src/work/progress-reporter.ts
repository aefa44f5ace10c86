import { create } from '@bufbuild/protobuf';
import { Subjects, TaskOutcomeSchema, type TaskWork } from '@transmute/contracts';

export type ProgressSink = (percent: number) => Promise<void>;

/** At most one report per this interval; engines print progress many times a second. */
export const PROGRESS_MIN_INTERVAL_MS = 1_000;

/**
 * Turns an engine's stream of percentages into few, rising reports: only a
 * higher whole percent, at most once per interval (a final 100 always goes
 * out), and nothing while the conversion is younger than `quietMs`. A
 * conversion done sooner reports only its end, as the worker's started
 * report does (TRANSMUTE_STARTED_REPORT_DELAY_MS): each report is an outcome,
 * a store write and an event, for a state no client had time to see.
 * Failures to send are dropped: progress is decoration, never a reason to
 * fail a conversion.
 */
export class ProgressThrottle {
  private lastPercent = -1;
  private lastAt = Number.NEGATIVE_INFINITY;
  private readonly startedAt: number;

  constructor(
    private readonly sink: ProgressSink,
    private readonly quietMs: number,
    private readonly now: () => number = Date.now,
    private readonly minIntervalMs = PROGRESS_MIN_INTERVAL_MS,
  ) {
    this.startedAt = now();
  }

  report(percent: number): void {
    if (!Number.isFinite(percent)) return;
    const whole = Math.max(0, Math.min(100, Math.floor(percent)));
    if (whole <= this.lastPercent) return;
    const at = this.now();
    if (at - this.startedAt < this.quietMs) return;
    if (whole < 100 && at - this.lastAt < this.minIntervalMs) return;
    this.lastPercent = whole;
    this.lastAt = at;
    void this.sink(whole).catch(() => undefined);
  }
}

/** A progress report for the orchestrator, deduplicated per task, attempt and percent. */
export function progressOutcome(work: TaskWork, percent: number) {
  return {
    subject: Subjects.tasksOutcomes,
    message: create(TaskOutcomeSchema, {
      jobId: work.jobId,
      taskName: work.taskName,
      attempt: work.attempt,
      outcome: { case: 'progress', value: { percent } },
    }),
    msgId: `${work.jobId}.${work.taskName}.${work.attempt}.progress.${percent}`,
  };
}
