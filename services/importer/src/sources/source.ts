import type { TaskContext } from '@transmute/messaging';
import type { TaskWork } from '@transmute/contracts';

export interface ImportedFile {
  key: string;
  filename: string;
  size: number;
}

/** One way of bringing a source in; `operation` is the task operation it serves. */
export interface ImportSource {
  readonly operation: string;
  import(work: TaskWork, context: TaskContext): Promise<ImportedFile>;
}

/** Name of an imported file when the client gave none: the task name with the source's format. */
export function fallbackFilename(work: TaskWork): string {
  return work.inputFormat ? `${work.taskName}.${work.inputFormat}` : work.taskName;
}
