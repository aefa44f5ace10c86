import type { LiveJob } from '../store/live-job';

/** A progress event for every this many points a convert advances (the converter reports at most once a second). */
export const PROGRESS_EVENT_STEP = 5;

const step = (percent: number | null): number => (percent === null ? -1 : Math.floor(percent / PROGRESS_EVENT_STEP));

/**
 * Whether a step that changed no status moved a running task's progress into
 * a new 5 % band (or gave its first figure): what the event stream shows
 * between status changes. Pure, and read from the stored job before and
 * after, so any replica decides alike.
 */
export function progressWorthAnnouncing(before: LiveJob, after: LiveJob): boolean {
  if (before.status !== after.status) return false;
  return Object.values(after.tasks).some((task) => {
    const was = before.tasks[task.name];
    if (task.status !== 'processing' || task.progress === null || !was) return false;
    // A new attempt starts again from nothing.
    const previous = was.attempt === task.attempt ? was.progress : null;
    return step(task.progress) > step(previous);
  });
}
