import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { type FileView, type TaskResultView, renderTaskResult } from '@transmute/api-schema';
import type { Job, Task } from '@transmute/contracts';

/** A job as the API returns it (spec: "Job (response body)"). */
export interface JobView {
  id: string;
  tag: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  endedAt: string | null;
  tasks: TaskView[];
  result: JobResultView | null;
  error: string;
  links: { self: string };
  sandbox?: true;
  note?: string;
}

/** Spec: "Task record (inside a job response)". */
export interface TaskView {
  id: string;
  name: string;
  job: string;
  operation: string;
  status: string;
  dependsOn: string[];
  createdAt: string;
  updatedAt: string;
  /** 0-100 while a long conversion runs and reports it. */
  progress?: number;
  result?: TaskResultView;
}

/** The job-level result (the spec leaves its fields open; see README): the job's downloadable files. */
export interface JobResultView {
  files: JobFileView[];
}

export interface JobFileView extends FileView {
  /** The task that produced the link. */
  task: string;
}

export const jobPath = (jobId: string) => `/v1/process/jobs/${jobId}`;

const iso = (stamp: Timestamp | undefined): string | null => (stamp ? timestampDate(stamp).toISOString() : null);
/** Stamps every stored job and task has; the epoch only if a record were ever written without one. */
const isoAlways = (stamp: Timestamp | undefined): string => iso(stamp) ?? new Date(0).toISOString();

/** The public shape of a job. Never renders the owning account. */
export function renderJob(job: Job): JobView {
  return {
    id: job.id,
    tag: job.tag,
    status: job.status,
    createdAt: isoAlways(job.createdAt),
    updatedAt: isoAlways(job.updatedAt),
    startedAt: iso(job.startedAt),
    endedAt: iso(job.endedAt),
    tasks: job.tasks.map((task) => renderTask(job.id, task)),
    result: job.status === 'finished' ? { files: jobFiles(job.tasks) } : null,
    error: job.error,
    links: { self: jobPath(job.id) },
  };
}

function renderTask(jobId: string, task: Task): TaskView {
  const view: TaskView = {
    id: task.name,
    name: task.name,
    job: jobId,
    operation: task.operation,
    status: task.status,
    dependsOn: [...task.dependsOn],
    createdAt: isoAlways(task.createdAt),
    updatedAt: isoAlways(task.updatedAt),
  };
  if (task.progress !== undefined) view.progress = task.progress;
  const result = task.result ? renderTaskResult(task.result, { uploadForm: true }) : undefined;
  if (result && Object.keys(result).length > 0) view.result = result;
  return view;
}

/**
 * What a finished job delivers: the export/url links when the job has an
 * export/url task; otherwise the download_url of each convert at the end of a
 * chain (no other convert reads it), since those are the job's outputs.
 */
export function jobFiles(tasks: readonly Task[]): JobFileView[] {
  const exports = tasks.filter((task) => task.operation === 'export/url');
  if (exports.length > 0) return exports.flatMap(exportedFiles);
  const readByConvert = new Set(tasks.filter((task) => task.operation === 'convert').flatMap((task) => task.dependsOn));
  return tasks
    .filter((task) => task.operation === 'convert' && !readByConvert.has(task.name) && task.result?.downloadUrl)
    .map((task) => ({ task: task.name, url: task.result?.downloadUrl ?? '', filename: task.result?.filename ?? '' }));
}

function exportedFiles(task: Task): JobFileView[] {
  const result = task.result;
  if (!result) return [];
  if (result.files.length > 0) return result.files.map(({ url, filename }) => ({ task: task.name, url, filename }));
  return result.url ? [{ task: task.name, url: result.url, filename: result.filename }] : [];
}
