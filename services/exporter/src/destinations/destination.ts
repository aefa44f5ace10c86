import type { TaskResult, TaskWork } from '@transmute/contracts';
import type { TaskContext } from '@transmute/messaging';

/** One way of delivering results; `operation` is the task operation it serves. */
export interface ExportDestination {
  readonly operation: string;
  export(work: TaskWork, context: TaskContext): Promise<TaskResult>;
}

/** Injection token of the list of every destination. */
export const EXPORT_DESTINATIONS = Symbol('EXPORT_DESTINATIONS');
