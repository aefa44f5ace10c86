import { z } from 'zod';
import { DateTime, FormatName, HttpUrl, Id, JobStatus, MAX_TAG_LENGTH, Operation, TaskName, TaskStatus, optional } from './common';
import { Task } from './tasks';

/** Spec: "Job create request body". Unknown fields are ignored. */
export const JobCreateBody = z
  .object({
    tasks: optional(z.record(TaskName, Task)).meta({
      description: 'Task name to task. Required, except for a job built around import_id, which may leave it out.',
    }),
    tag: optional(z.string().max(MAX_TAG_LENGTH)).meta({ description: 'Your own label, echoed back on the job.' }),
    sandbox: optional(z.boolean()).meta({ description: 'Validate only and answer 200 with a simulated finished job; no key needed.' }),
    import_id: optional(Id).meta({ description: 'Build the job around a file sent to POST /v1/imports (with output_format).' }),
    output_format: optional(FormatName).meta({ description: 'With import_id: the target format.' }),
    input_format: optional(FormatName).meta({ description: 'With import_id: the source format, when the import carried no filename.' }),
    webhook_url: optional(HttpUrl).meta({ description: 'Notified when the job ends (job.finished / job.failed).' }),
  })
  .meta({ id: 'JobCreateRequest' });
export type JobCreateBody = z.infer<typeof JobCreateBody>;

export const UploadForm = z
  .object({
    url: z.string().meta({ description: 'Signed, short-lived link to send the bytes to.' }),
    method: z.enum(['PUT', 'POST']).meta({
      description:
        'PUT (fs storage): the raw bytes as the body, with exactly headers. POST (S3 storage): a multipart/form-data body of parameters, in order, then the file as the last field, `file`.',
    }),
    parameters: z.record(z.string(), z.string()).meta({ description: 'POST: the form fields to send before the file; empty for PUT.' }),
    headers: z.record(z.string(), z.string()).meta({ description: 'Send exactly these headers; Content-Type is part of the signature.' }),
    expiresAt: DateTime,
  })
  .meta({ id: 'UploadForm' });

const FileLink = z.object({ url: z.string(), filename: z.string() });

export const TaskResult = z
  .object({
    form: UploadForm.optional().meta({ description: 'import/upload, until its bytes arrive.' }),
    url: z.string().optional().meta({ description: 'export/url: the download link ({base_url}/v1/download/<token>).' }),
    filename: z.string().optional(),
    download_url: z.string().optional().meta({ description: 'convert: link to the finished file.' }),
    error: z.string().optional().meta({ description: 'Why the task failed.' }),
    files: z.array(FileLink).optional().meta({ description: 'export/url with several inputs: every file.' }),
  })
  .meta({ id: 'TaskResult', description: 'Only the fields the task has; credentials never appear.' });

export const TaskRecord = z
  .object({
    id: z.string().meta({ description: 'Equals name.' }),
    name: z.string(),
    job: z.string(),
    operation: Operation,
    status: TaskStatus,
    dependsOn: z.array(z.string()),
    createdAt: DateTime,
    updatedAt: DateTime,
    progress: z.number().int().min(0).max(100).optional().meta({ description: 'convert: percent done, while it runs.' }),
    result: TaskResult.optional(),
  })
  .meta({ id: 'TaskRecord' });

export const JobResult = z
  .object({
    files: z.array(FileLink.extend({ task: z.string() })).meta({
      description: 'Every export/url file; without export/url tasks, the download_url of each convert that ends a chain.',
    }),
  })
  .meta({ id: 'JobResult' });

export const SANDBOX_ID_PATTERN = /^sandbox-[0-9a-f]{32}$/;

/** Spec: "Job (response body)". */
export const Job = z
  .object({
    id: z.union([Id, z.string().regex(SANDBOX_ID_PATTERN)]),
    tag: z.string(),
    status: JobStatus,
    createdAt: DateTime,
    updatedAt: DateTime,
    startedAt: DateTime.nullable(),
    endedAt: DateTime.nullable(),
    tasks: z.array(TaskRecord).meta({ description: 'The task records, in the order the request named them.' }),
    result: JobResult.nullable().meta({ description: 'Set once the job has finished; null before and on a failed job.' }),
    error: z.string().meta({ description: 'Why the job failed; empty otherwise.' }),
    links: z.object({ self: z.string() }),
    sandbox: z.literal(true).optional(),
    note: z.string().optional(),
  })
  .meta({ id: 'Job' });
export type Job = z.infer<typeof Job>;
export type TaskRecord = z.infer<typeof TaskRecord>;
export type TaskResult = z.infer<typeof TaskResult>;
export type JobResult = z.infer<typeof JobResult>;
