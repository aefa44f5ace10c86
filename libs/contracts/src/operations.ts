/** The twelve task operations of the spec, and the states jobs and tasks move through. */
export const IMPORT_OPERATIONS = ['import/upload', 'import/url', 'import/base64', 'import/s3', 'import/sftp', 'import/googlecloud'] as const;

export const EXPORT_OPERATIONS = ['export/url', 'export/s3', 'export/sftp', 'export/googlecloud', 'export/webhook'] as const;

export const OPERATIONS = [...IMPORT_OPERATIONS, 'convert', ...EXPORT_OPERATIONS] as const;

export type ImportOperation = (typeof IMPORT_OPERATIONS)[number];
export type ExportOperation = (typeof EXPORT_OPERATIONS)[number];
export type Operation = (typeof OPERATIONS)[number];

export function isOperation(value: string): value is Operation {
  return (OPERATIONS as readonly string[]).includes(value);
}
export function isImportOperation(value: string): value is ImportOperation {
  return (IMPORT_OPERATIONS as readonly string[]).includes(value);
}
export function isExportOperation(value: string): value is ExportOperation {
  return (EXPORT_OPERATIONS as readonly string[]).includes(value);
}

export const JOB_STATUSES = ['waiting_upload', 'waiting', 'queued', 'processing', 'converting', 'finished', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const TASK_STATUSES = ['waiting_upload', 'waiting', 'waiting_input', 'queued', 'processing', 'finished', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const TERMINAL_TASK_STATUSES: readonly TaskStatus[] = ['finished', 'failed', 'cancelled'];
/** A task that has not been handed to a worker yet. */
export const WAITING_TASK_STATUSES: readonly TaskStatus[] = ['waiting_upload', 'waiting', 'waiting_input'];
/** A task handed to a worker and not yet reported done. */
export const RUNNING_TASK_STATUSES: readonly TaskStatus[] = ['queued', 'processing'];
export const TERMINAL_JOB_STATUSES: readonly JobStatus[] = ['finished', 'failed'];
/** A started job that has not ended. */
export const RUNNING_JOB_STATUSES: readonly JobStatus[] = ['queued', 'processing', 'converting'];
