import type { StoredFile, TaskWork } from '@transmute/contracts';
import { ServiceFailure } from '@transmute/contracts';

export interface FileToExport {
  file: StoredFile;
  /** The name at the destination: the task's `filename` for a single file, else the result's own. */
  filename: string;
}

/** The files an export task delivers, with their names at the destination. */
export function filesToExport(work: TaskWork): FileToExport[] {
  if (work.inputs.length === 0) throw ServiceFailure.validation(`export task ${work.taskName} has no file to export`);
  const single = work.inputs.length === 1;
  return work.inputs.map((file) => ({ file, filename: (single && work.spec?.filename) || file.filename || `${work.taskName}.bin` }));
}
