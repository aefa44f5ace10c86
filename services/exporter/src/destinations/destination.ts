import type { TaskResult, TaskWork } from '@transmute/contracts';

/** One way of delivering results; `operation` is the task operation it serves. */
export interface ExportDestination {
  readonly operation: string;
  export(work: TaskWork): Promise<TaskResult>;
}
