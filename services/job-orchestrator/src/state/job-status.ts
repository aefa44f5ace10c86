import { type JobStatus, TERMINAL_TASK_STATUSES, type TaskStatus, WAITING_TASK_STATUSES, isExportOperation } from '@transmute/contracts';

export interface TaskState {
  name: string;
  operation: string;
  status: TaskStatus;
  error?: string;
}

export interface DerivedStatus {
  status: JobStatus;
  error: string;
}

/**
 * A job's status follows from its tasks, in this order of precedence:
 * a failed import or convert fails the job (a failed export is reported on
 * its own task and does not); all tasks done means finished; then the
 * busiest state any task is in.
 */
export function deriveJobStatus(tasks: readonly TaskState[], started: boolean): DerivedStatus {
  const failed = tasks.find((task) => task.status === 'failed' && !isExportOperation(task.operation));
  if (failed) return { status: 'failed', error: `task ${failed.name} failed: ${failed.error || 'unknown error'}` };
  if (tasks.every((task) => TERMINAL_TASK_STATUSES.includes(task.status))) return { status: 'finished', error: '' };
  if (tasks.some((task) => task.operation === 'convert' && task.status === 'processing')) return { status: 'converting', error: '' };
  if (tasks.some((task) => task.status === 'processing')) return { status: 'processing', error: '' };
  if (!started) return { status: 'waiting_upload', error: '' };
  if (tasks.some((task) => task.status === 'queued')) return { status: 'queued', error: '' };
  // Started, nothing running or queued, not all done: the next step is about to be dispatched.
  return { status: tasks.some((task) => task.status === 'finished') ? 'processing' : 'queued', error: '' };
}

export function isWaiting(status: TaskStatus): boolean {
  return WAITING_TASK_STATUSES.includes(status);
}
