/**
 * The public API's shapes, as ../shared/spec/interface-spec.md (beside the repository) names them.
 * Written from the spec, not imported from the gateway: the suite checks the
 * contract, so it must not share the implementation's idea of it.
 */

export const JOB_STATUSES = ['waiting_upload', 'waiting', 'queued', 'processing', 'converting', 'finished', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const TERMINAL_JOB_STATUSES: readonly JobStatus[] = ['finished', 'failed'];

/** The fields a (non-sandbox) job response carries, no more and no fewer. */
export const JOB_FIELDS = ['id', 'tag', 'status', 'createdAt', 'updatedAt', 'startedAt', 'endedAt', 'tasks', 'result', 'error', 'links'] as const;

/** Spec: "Task record (inside a job response)"; `result` only when the task has one. */
export const TASK_FIELDS = ['id', 'name', 'job', 'operation', 'status', 'dependsOn', 'createdAt', 'updatedAt'] as const;

export interface UploadForm {
  url: string;
  /** PUT: the raw bytes (fs storage); POST: a multipart form of parameters, then the file (S3's POST policy). */
  method: 'PUT' | 'POST';
  parameters: Record<string, string>;
  headers: Record<string, string>;
  expiresAt: string;
}

export interface TaskResult {
  /** import/upload, at creation. */
  form?: UploadForm;
  /** export/url, finished: `{base_url}/v1/download/<token>`. */
  url?: string;
  filename?: string;
  /** convert, finished. */
  download_url?: string;
  [other: string]: unknown;
}

export interface TaskRecord {
  id: string;
  name: string;
  job: string;
  operation: string;
  status: string;
  dependsOn: string[];
  createdAt: string;
  updatedAt: string;
  /** 0-100 while a convert that reports progress is processing. */
  progress?: number;
  result?: TaskResult;
}

export interface Job {
  id: string;
  tag: string;
  status: JobStatus;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  endedAt: string | null;
  tasks: TaskRecord[];
  result: Record<string, unknown> | null;
  error: string;
  links: { self: string };
  sandbox?: boolean;
  note?: string;
}

/** Spec: "Task (request body, value in the `tasks` map)". */
export interface TaskRequest {
  operation: string;
  input?: string | string[];
  url?: string;
  input_format?: string;
  output_format?: string;
  options?: Record<string, unknown>;
  file?: string;
  filename?: string;
}

export interface CreateJobRequest {
  tasks: Record<string, TaskRequest>;
  tag?: string;
  sandbox?: boolean;
  webhook_url?: string;
}

/** Spec: "Error". */
export interface ErrorBody {
  status: 'error';
  message: string;
}

/** The standard chain: import/upload -> convert -> export/url, with the spec's task names. */
export function uploadConvertExport(inputFormat: string, outputFormat: string, tag = ''): CreateJobRequest {
  return {
    tag,
    tasks: {
      'import-my-file': { operation: 'import/upload' },
      'convert-my-file': { operation: 'convert', input: 'import-my-file', input_format: inputFormat, output_format: outputFormat },
      'export-my-file': { operation: 'export/url', input: ['convert-my-file'] },
    },
  };
}

export function taskOf(job: Job, name: string): TaskRecord {
  const task = job.tasks.find((candidate) => candidate.name === name);
  if (!task) throw new Error(`job ${job.id} has no task ${name}; tasks: ${job.tasks.map((t) => t.name).join(', ')}`);
  return task;
}

export function taskByOperation(job: Job, operation: string): TaskRecord {
  const task = job.tasks.find((candidate) => candidate.operation === operation);
  if (!task) throw new Error(`job ${job.id} has no ${operation} task; tasks: ${job.tasks.map((t) => `${t.name} (${t.operation})`).join(', ')}`);
  return task;
}
